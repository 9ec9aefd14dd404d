import type { DatabaseExecutor, Payment, Transaction } from '@platform/db';

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

/**
 * Issues the receipt of a successful payment: the last step of the transaction that records the success, so every
 * success has exactly one receipt, and a success that rolls back has none (nor takes a receipt number).
 */
export interface ReceiptIssuer {
  issueReceipt(
    tx: Transaction,
    payment: Payment,
    paidFor: PaidFor,
    now: Date,
    options?: ReceiptIssueOptions,
  ): Promise<void>;
}

export interface ReceiptIssueOptions {
  /**
   * Whether the organization's members are told (an in-app notification with the link): true for a success as it
   * happens; false for the receipt of a payment that succeeded long before
   * (docs/decisions.md#receipts-for-earlier-payments), which is news to no one.
   */
  tellMembers: boolean;
}

/** Charges for a change or renewal of a mail subscription (not purchases): they have their own hooks. */
export function isSubscriptionCharge(payment: Payment): boolean {
  return payment.purpose === 'mail_subscription_change' || payment.purpose === 'mail_subscription_renewal';
}

/** What a payer needs to pay a bank transfer: the seller's account and the reference to write on the transfer. */
interface TransferInstructions {
  bankName: string;
  accountName: string;
  accountNumber: string;
  branch: string;
  /** What the payer writes on the transfer (`BT` + 8 characters): how finance finds the payment. */
  reference: string;
}

/** When a bank transfer is payable by, and when it expires unconfirmed (docs/decisions.md#bank-transfers). */
export interface TransferTerms {
  dueAt: Date;
  expiresAt: Date;
}

/** A bank transfer's invoice, as the pay request answers it. */
export interface TransferInvoice extends TransferTerms {
  /** `INV-000001`. */
  number: string;
  instructions: TransferInstructions;
}

/**
 * Issues the invoice of a payment by bank transfer, in the transaction that inserts the pending payment, so every bank
 * transfer has exactly one invoice and one that rolls back has none (nor takes an invoice number). Invoices implement
 * it; the billing routes pass it in.
 */
export interface InvoiceIssuer {
  issueInvoice(tx: Transaction, payment: Payment, terms: TransferTerms, now: Date): Promise<TransferInvoice>;
  /** The invoice issued for a payment; undefined when it has none. */
  findInvoice(db: DatabaseExecutor, paymentId: string): Promise<TransferInvoice | undefined>;
}
