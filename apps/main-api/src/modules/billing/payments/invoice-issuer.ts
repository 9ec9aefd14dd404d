import type { DatabaseExecutor, Payment, Transaction } from '@platform/db';

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
