import { type DatabaseExecutor, databaseErrorOf, type Payment, type Transaction } from '@platform/db';
import { receipts } from '@platform/db/schema/billing-documents';
import { payments } from '@platform/db/schema/payments';
import { and, asc, eq, notExists, sql } from 'drizzle-orm';

/** Succeeded payments with no receipt (every success since migration 0019 issues one in its own transaction). */
const succeededWithoutReceipt = and(
  eq(payments.status, 'succeeded'),
  notExists(sql`(select 1 from ${receipts} where ${receipts.paymentId} = ${payments.id})`),
);

/** Up to `limit` succeeded payments that have no receipt, the one that succeeded first first. */
export async function findPaymentsWithoutReceipt(
  db: DatabaseExecutor,
  limit: number,
): Promise<{ id: string; reference: string }[]> {
  return db
    .select({ id: payments.id, reference: payments.reference })
    .from(payments)
    .where(succeededWithoutReceipt)
    .orderBy(asc(payments.completedAt), asc(payments.id))
    .limit(limit);
}

/**
 * The payment, locked until the transaction ends, if it still has no receipt; undefined when it has one or another
 * transaction holds it (skipped, not waited for: that one is issuing its receipt).
 */
export async function lockPaymentWithoutReceipt(tx: Transaction, paymentId: string): Promise<Payment | undefined> {
  const [payment] = await tx
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), succeededWithoutReceipt))
    .for('update', { skipLocked: true });
  return payment;
}

/** A receipt insert refused because the payment has one already (`receipts.payment_id` is unique). */
export function isSecondReceiptOfPayment(error: unknown): boolean {
  const failure = databaseErrorOf(error);
  return failure?.code === '23505' && failure.constraint === 'receipts_payment_id_unique';
}
