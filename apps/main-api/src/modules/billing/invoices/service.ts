import type { DatabaseExecutor } from '@platform/db';
import { notFound } from '@platform/errors';
import type { BillingDocument } from '../documents/index.js';
import { isPaymentReference } from '../payments/index.js';
import { invoiceDocument } from './document.js';
import { countPendingInvoices, findInvoiceOfPayment } from './repository.js';

const INVOICE_NOT_FOUND = 'Invoice not found';

/**
 * The invoice of one of the organization's payments, as a document to render, with where it stands at `now`. Only a
 * bank transfer has one; any other payment, another organization's, an unknown and a malformed reference are the
 * same 404.
 */
export async function paymentInvoice(
  db: DatabaseExecutor,
  organizationId: string,
  reference: string,
  now: Date,
): Promise<BillingDocument> {
  const found = isPaymentReference(reference) ? await findInvoiceOfPayment(db, organizationId, reference) : undefined;
  if (found === undefined) throw notFound(INVOICE_NOT_FOUND);
  return invoiceDocument(found, now);
}

/**
 * How many of the organization's invoices are unpaid: their bank transfer is still awaited (not yet confirmed, not
 * expired). What the dashboard's Home counts for its attention items.
 */
export function unpaidInvoiceCount(db: DatabaseExecutor, organizationId: string): Promise<number> {
  return countPendingInvoices(db, organizationId);
}
