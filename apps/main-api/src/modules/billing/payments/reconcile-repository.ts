import type { Database, Payment } from '@platform/db';
import { payments } from '@platform/db/schema/payments';
import { and, asc, eq, inArray, lte, ne } from 'drizzle-orm';

/**
 * Claims up to `limit` pending payments due for a check, oldest due first, and moves their next check to
 * `leaseUntil`, so another instance (or this one, next round) skips them while they are being checked.
 * Rows another instance is claiming are skipped, not waited for. Bank transfers are not: no provider can be asked
 * about them, and their next check is their expiry, which the bank transfer expiry job keeps.
 */
export async function claimPaymentsDueForCheck(
  db: Database,
  options: { now: Date; leaseUntil: Date; limit: number },
): Promise<Payment[]> {
  const due = db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        lte(payments.nextCheckAt, options.now),
        ne(payments.channel, 'bank_transfer'),
      ),
    )
    .orderBy(asc(payments.nextCheckAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(payments)
    .set({ nextCheckAt: options.leaseUntil })
    .where(and(inArray(payments.id, due), eq(payments.status, 'pending')))
    .returning();
}
