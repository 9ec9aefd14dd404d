import type { DatabaseExecutor, Payment, PaymentEvent, PaymentProvider } from '@platform/db';
import { paymentEvents, payments } from '@platform/db/schema/payments';
import { and, asc, eq, gte, inArray, isNull, like, sql } from 'drizzle-orm';

// M-Pesa results that arrive before the payment they settle is known: the prompts still in flight, and the results
// kept without a payment until one matches them.

/**
 * Mobile-money prompts of `provider` whose push is still in flight: pending, without the provider's reference
 * and without a recorded provider error. With `payer`, only those for that number and amount.
 */
export async function findPushesInFlight(
  db: DatabaseExecutor,
  provider: PaymentProvider,
  payer?: { phone: string; amount: number },
): Promise<Payment[]> {
  return db
    .select()
    .from(payments)
    .where(
      and(
        eq(payments.status, 'pending'),
        eq(payments.provider, provider),
        eq(payments.channel, 'mobile_money'),
        isNull(payments.providerReference),
        payer === undefined ? undefined : and(eq(payments.phone, payer.phone), eq(payments.amount, payer.amount)),
        sql`not exists (select 1 from ${paymentEvents} where ${paymentEvents.paymentId} = ${payments.id} and ${paymentEvents.type} = 'provider_error')`,
      ),
    );
}

/** Provider events kept without a payment (no payment matched them), from `sources`, received since `since`. */
export async function findUnmatchedProviderEvents(
  db: DatabaseExecutor,
  sources: readonly string[],
  since: Date,
): Promise<PaymentEvent[]> {
  return db
    .select()
    .from(paymentEvents)
    .where(
      and(
        isNull(paymentEvents.paymentId),
        eq(paymentEvents.type, 'provider_event'),
        inArray(paymentEvents.source, [...sources]),
        gte(paymentEvents.createdAt, since),
      ),
    )
    .orderBy(asc(paymentEvents.createdAt));
}

/**
 * Provider events recorded before their payment was known (keys starting with `keyPrefix`), now attached to
 * it. Each is returned to one caller only.
 */
export async function attachEarlyEvents(
  db: DatabaseExecutor,
  paymentId: string,
  keyPrefix: string,
): Promise<PaymentEvent[]> {
  return db
    .update(paymentEvents)
    .set({ paymentId })
    .where(
      and(
        isNull(paymentEvents.paymentId),
        like(paymentEvents.providerEventKey, `${keyPrefix.replace(/[\\%_]/g, '\\$&')}%`),
      ),
    )
    .returning();
}
