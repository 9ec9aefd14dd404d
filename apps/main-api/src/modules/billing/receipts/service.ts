import type { DatabaseExecutor } from '@platform/db';
import { notFound } from '@platform/errors';
import type { BillingDocument } from '../documents/index.js';
import { isPaymentReference } from '../payments/index.js';
import { receiptDocument } from './document.js';
import { findReceiptOfPayment } from './repository.js';

const RECEIPT_NOT_FOUND = 'Receipt not found';

/**
 * The receipt of one of the organization's payments, as a document to render. A payment that has not succeeded has
 * none; it, another organization's payment, an unknown and a malformed reference are the same 404.
 */
export async function paymentReceipt(
  db: DatabaseExecutor,
  organizationId: string,
  reference: string,
): Promise<BillingDocument> {
  const receipt = isPaymentReference(reference) ? await findReceiptOfPayment(db, organizationId, reference) : undefined;
  if (receipt === undefined) throw notFound(RECEIPT_NOT_FOUND);
  return receiptDocument(receipt);
}
