import type { DatabaseExecutor, Invoice, Payment, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import type { Seller, SellerBankAccount } from '../config.js';
import { formatDay, issueParticulars } from '../documents/index.js';
import { type InvoiceIssuer, invoicePageOf, type TransferInvoice, type TransferTerms } from '../payments/index.js';
import { findInvoiceOfPaymentId, insertInvoice } from './repository.js';

/** The number series of invoices and the prefix of their numbers: a series of their own, beside receipts'. */
const INVOICE_SERIES = 'invoice';
const INVOICE_PREFIX = 'INV';

/** Issues invoices naming `seller` and asking for transfers into `account`: what payments call for a bank transfer. */
export function invoiceIssuer(seller: Seller, account: SellerBankAccount): InvoiceIssuer {
  return {
    issueInvoice: (tx, payment, terms, now) => issueInvoice(tx, { seller, account }, payment, terms, now),
    findInvoice: async (db: DatabaseExecutor, paymentId: string) => {
      const invoice = await findInvoiceOfPaymentId(db, paymentId);
      return invoice === undefined ? undefined : transferInvoiceOf(invoice);
    },
  };
}

/**
 * Issues the invoice of a bank transfer just recorded as pending, in the transaction that records it: everything it
 * shows is copied onto it (the seller and its bank account, the buyer, what is bought, the amounts with the VAT in
 * them, the reference to write on the transfer, when it is due and when it lapses), its number is the next of the
 * gapless `invoice` series (taken last: the series stays locked until the transaction ends), and the organization's
 * members are told, with the link (docs/decisions.md#invoices).
 */
async function issueInvoice(
  tx: Transaction,
  from: { seller: Seller; account: SellerBankAccount },
  payment: Payment,
  terms: TransferTerms,
  now: Date,
): Promise<TransferInvoice> {
  if (payment.accountReference === null) throw new Error(`Bank transfer ${payment.reference} has no reference`);
  const { seller, account } = from;
  const invoice = await insertInvoice(tx, {
    ...(await issueParticulars(tx, { series: INVOICE_SERIES, prefix: INVOICE_PREFIX, seller, payment, now })),
    dueAt: terms.dueAt,
    expiresAt: terms.expiresAt,
    transferReference: payment.accountReference,
    bankName: account.bankName,
    bankAccountName: account.accountName,
    bankAccountNumber: account.accountNumber,
    bankBranch: account.branch,
    sandbox: account.sandbox,
  });
  await notifyOrganizationMembers(tx, payment.organizationId, {
    title: 'Invoice issued',
    message:
      `Invoice ${invoice.number}: ${formatKes(invoice.total)} to pay by bank transfer by ${formatDay(invoice.dueAt)}, ` +
      `with the reference ${invoice.transferReference} (${payment.reference}).`,
    type: 'info',
    // The dashboard's page: a browser opens it with its cookie (docs/decisions.md#dashboard-pages).
    actionUrl: invoicePageOf(payment.reference, payment.organizationId),
  });
  return transferInvoiceOf(invoice);
}

function transferInvoiceOf(invoice: Invoice): TransferInvoice {
  return {
    number: invoice.number,
    dueAt: invoice.dueAt,
    expiresAt: invoice.expiresAt,
    instructions: {
      bankName: invoice.bankName,
      accountName: invoice.bankAccountName,
      accountNumber: invoice.bankAccountNumber,
      branch: invoice.bankBranch,
      reference: invoice.transferReference,
    },
  };
}
