import type { Payment, Transaction } from '@platform/db';
import type { PaidFor } from './payment-hooks.js';

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
