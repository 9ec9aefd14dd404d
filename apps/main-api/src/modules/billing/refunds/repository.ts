import type { DatabaseExecutor, Payment } from '@platform/db';
import { paymentEvents, payments } from '@platform/db/schema/payments';
import { organizationNameOf, organizationRetiredAtOf } from '@platform/organizations';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';

/** A payment to refund, with its organization and what reported the money (the source of its move to refund_due). */
export interface RefundDueRow {
  payment: Payment;
  organizationName: string;
  retiredAt: Date | null;
  reportedBy: string | null;
  position: string;
}

/**
 * Payments whose money arrived for a retired organization (status refund_due), of every organization, newest first
 * (served by payments_refund_due_idx), with their position for the next page's cursor.
 */
export function listRefundDueRows(
  db: DatabaseExecutor,
  query: { after: PagePosition | undefined; limit: number },
): Promise<RefundDueRow[]> {
  const conditions: Array<SQL | undefined> = [eq(payments.status, 'refund_due')];
  if (query.after !== undefined) conditions.push(afterPosition(payments, query.after));
  return db
    .select({
      payment: payments,
      organizationName: organizationNameOf(payments.organizationId),
      retiredAt: organizationRetiredAtOf(payments.organizationId),
      // The payment's id named with its table: a select of one table writes its columns bare.
      reportedBy: sql<string | null>`(select ${paymentEvents.source} from ${paymentEvents}
        where ${paymentEvents.paymentId} = ${payments}.${sql.identifier(payments.id.name)}
          and ${paymentEvents.toStatus} = 'refund_due' limit 1)`,
      position: cursorTimeOf(payments.createdAt),
    })
    .from(payments)
    .where(and(...conditions))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(query.limit);
}
