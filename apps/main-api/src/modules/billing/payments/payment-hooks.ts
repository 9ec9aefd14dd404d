import type { Payment, Transaction } from '@platform/db';

/**
 * What a successful payment paid for, as its receipt states it: a wallet top-up, a period of the mail subscription,
 * or, when what it was for could no longer apply (a subscription was already active, say), where the money went
 * instead.
 */
export type PaidFor =
  | { kind: 'top_up' }
  | { kind: 'period'; start: Date; end: Date }
  | { kind: 'not_applied'; note: string };

/**
 * What other modules do when a payment ends, inside the transaction that records its final status (so it
 * happens exactly once, or not at all).
 */
export interface PaymentHooks {
  /** A mail subscription purchase was paid: start (or replace) the organization's subscription. */
  onMailSubscriptionPaid(tx: Transaction, payment: Payment): Promise<PaidFor>;
  /** A card charge for a subscription change or renewal succeeded: apply what it paid for. */
  onSubscriptionChargePaid(tx: Transaction, payment: Payment): Promise<PaidFor>;
  /** A card charge for a subscription change or renewal failed, was cancelled or expired. */
  onSubscriptionChargeFailed(tx: Transaction, payment: Payment): Promise<void>;
  /**
   * Money received beyond what a successful subscription payment was for (bank transfers that added up to more than
   * their invoice: docs/decisions.md#split-bank-transfers): added to the organization's credit balance, once per
   * payment. Runs in the transaction that applied the payment.
   */
  onSubscriptionPaymentExcess(tx: Transaction, payment: Payment, excess: number): Promise<void>;
  /**
   * What a mail subscription payment that succeeded before receipts existed paid for, read back from what its success
   * left behind, for the receipt issued for it now (docs/decisions.md#receipts-for-earlier-payments). Changes nothing.
   */
  paidForEarlierPayment(tx: Transaction, payment: Payment): Promise<PaidFor>;
}

/** Charges for a change or renewal of a mail subscription (not purchases): they have their own hooks. */
export function isSubscriptionCharge(payment: Payment): boolean {
  return payment.purpose === 'mail_subscription_change' || payment.purpose === 'mail_subscription_renewal';
}
