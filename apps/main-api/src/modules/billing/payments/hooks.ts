import type { Payment, Transaction } from '@platform/db';

/**
 * What other modules do when a payment ends, inside the transaction that records its final status (so it
 * happens exactly once, or not at all).
 */
export interface PaymentHooks {
  /** A mail subscription purchase was paid: start (or replace) the organization's subscription. */
  onMailSubscriptionPaid(tx: Transaction, payment: Payment): Promise<void>;
  /** A card charge for a subscription change or renewal succeeded: apply what it paid for. */
  onSubscriptionChargePaid(tx: Transaction, payment: Payment): Promise<void>;
  /** A card charge for a subscription change or renewal failed, was cancelled or expired. */
  onSubscriptionChargeFailed(tx: Transaction, payment: Payment): Promise<void>;
}

/** Charges for a change or renewal of a mail subscription (not purchases): they have their own hooks. */
export function isSubscriptionCharge(payment: Payment): boolean {
  return payment.purpose === 'mail_subscription_change' || payment.purpose === 'mail_subscription_renewal';
}
