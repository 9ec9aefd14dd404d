import type { DatabaseExecutor, NewReceipt, Receipt, Transaction } from '@platform/db';
import { receipts } from '@platform/db/schema/billing-documents';
import { payments } from '@platform/db/schema/payments';
import { and, eq } from 'drizzle-orm';

export async function insertReceipt(tx: Transaction, receipt: NewReceipt): Promise<Receipt> {
  const [inserted] = await tx.insert(receipts).values(receipt).returning();
  if (inserted === undefined) throw new Error('Inserting the receipt returned no row');
  return inserted;
}

/** The receipt of the organization's payment `reference`; undefined when it has none or is another's. */
export async function findReceiptOfPayment(
  db: DatabaseExecutor,
  organizationId: string,
  reference: string,
): Promise<Receipt | undefined> {
  const [found] = await db
    .select({ receipt: receipts })
    .from(receipts)
    .innerJoin(payments, eq(payments.id, receipts.paymentId))
    .where(and(eq(payments.reference, reference), eq(receipts.organizationId, organizationId)));
  return found?.receipt;
}
