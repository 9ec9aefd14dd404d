import type { DatabaseExecutor, Payment } from '@platform/db';
import { paymentEvents, payments } from '@platform/db/schema/payments';
import { and, desc, eq, gte, sql } from 'drizzle-orm';
import type { StartedBy } from './repository.js';

/**
 * The organization's most recent payment started since `since` by a request with this idempotency scope
 * and key, with that request's fingerprint. Reads the organization's recent payments only (by its index).
 */
export async function findPaymentStartedWith(
  db: DatabaseExecutor,
  organizationId: string,
  startedBy: Pick<StartedBy, 'scope' | 'key'>,
  since: Date,
): Promise<{ payment: Payment; fingerprint: string | undefined } | undefined> {
  const [found] = await db
    .select({
      payment: payments,
      fingerprint: sql<string | null>`${paymentEvents.payload} -> 'idempotency' ->> 'fingerprint'`,
    })
    .from(payments)
    .innerJoin(paymentEvents, and(eq(paymentEvents.paymentId, payments.id), eq(paymentEvents.type, 'created')))
    .where(
      and(
        eq(payments.organizationId, organizationId),
        gte(payments.createdAt, since),
        sql`${paymentEvents.payload} -> 'idempotency' ->> 'scope' = ${startedBy.scope}`,
        sql`${paymentEvents.payload} -> 'idempotency' ->> 'key' = ${startedBy.key}`,
      ),
    )
    .orderBy(desc(payments.createdAt))
    .limit(1);
  return found === undefined ? undefined : { payment: found.payment, fingerprint: found.fingerprint ?? undefined };
}
