import {
  type Database,
  type DatabaseExecutor,
  type PaymentEvent,
  type NewPayment,
  type NewPaymentEvent,
  type Payment,
  paymentEvents,
  type PaymentProvider,
  payments,
  type Transaction,
} from '@platform/db';
import { and, asc, eq, inArray, isNull, like, lte, sql } from 'drizzle-orm';

/**
 * How a message finds its payment: by our reference (of a given provider's payment, when from a provider),
 * or by the provider's handle on it.
 */
export type PaymentMatch =
  | { reference: string; provider?: PaymentProvider }
  | { provider: PaymentProvider; providerReference: string };

export type NewPendingPayment = Omit<NewPayment, 'id' | 'status' | 'createdAt' | 'updatedAt' | 'completedAt'> & {
  createdAt: Date;
};

/** Inserts a pending payment and its `created` event, together. */
export async function createPendingPayment(db: Database, values: NewPendingPayment): Promise<Payment> {
  return db.transaction((tx) => insertPendingPayment(tx, values));
}

/** Inserts a pending payment and its `created` event in the caller's transaction. */
export async function insertPendingPayment(tx: Transaction, values: NewPendingPayment): Promise<Payment> {
  const [payment] = await tx
    .insert(payments)
    .values({ ...values, status: 'pending', updatedAt: values.createdAt })
    .returning();
  if (payment === undefined) throw new Error('Inserting the payment returned no row');
  await tx.insert(paymentEvents).values({
    paymentId: payment.id,
    type: 'created',
    source: 'api',
    payload: { amount: payment.amount, method: payment.method, purpose: payment.purpose, provider: payment.provider },
    createdAt: values.createdAt,
  });
  return payment;
}

/**
 * Serialises, until the transaction ends, everything done about one provider reference: storing it on its
 * payment, and handling a callback that names it. So a callback that overtakes the provider's answer to
 * our request either sees the stored reference or is recorded before it is stored (and picked up then).
 */
export async function lockProviderReference(
  tx: DatabaseExecutor,
  provider: PaymentProvider,
  providerReference: string,
): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`payment:${provider}:${providerReference}`}))`);
}

/** Stores the provider's handle on the payment (and its checkout URL) once the provider accepted it. */
export async function recordProviderAcceptance(
  db: Database,
  payment: Payment,
  accepted: { providerReference: string; checkoutUrl?: string; payload: unknown },
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    await lockProviderReference(tx, payment.provider, accepted.providerReference);
    await tx
      .update(payments)
      .set({ providerReference: accepted.providerReference, checkoutUrl: accepted.checkoutUrl ?? null, updatedAt: now })
      .where(and(eq(payments.id, payment.id), isNull(payments.providerReference)));
    await tx.insert(paymentEvents).values({
      paymentId: payment.id,
      type: 'provider_accepted',
      source: 'api',
      payload: accepted.payload ?? null,
      createdAt: now,
    });
  });
}

export async function findPayment(db: DatabaseExecutor, match: PaymentMatch): Promise<Payment | undefined> {
  const condition =
    'reference' in match
      ? and(
          eq(payments.reference, match.reference),
          match.provider === undefined ? undefined : eq(payments.provider, match.provider),
        )
      : and(eq(payments.provider, match.provider), eq(payments.providerReference, match.providerReference));
  const [payment] = await db.select().from(payments).where(condition);
  return payment;
}

/** One of the organization's payments by reference; undefined for another organization's. */
export async function findOrganizationPayment(
  db: DatabaseExecutor,
  organizationId: string,
  reference: string,
): Promise<Payment | undefined> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.reference, reference), eq(payments.organizationId, organizationId)));
  return payment;
}

/**
 * Provider events recorded before their payment was known (keys starting with `keyPrefix`), now attached to
 * it. Each is returned to one caller only.
 */
export async function attachEarlyEvents(db: DatabaseExecutor, paymentId: string, keyPrefix: string): Promise<PaymentEvent[]> {
  return db
    .update(paymentEvents)
    .set({ paymentId })
    .where(and(isNull(paymentEvents.paymentId), like(paymentEvents.providerEventKey, `${keyPrefix.replace(/[\\%_]/g, '\\$&')}%`)))
    .returning();
}

/** Records an event; false when its provider event key was recorded before (a duplicate delivery). */
export async function recordPaymentEvent(db: DatabaseExecutor, event: NewPaymentEvent): Promise<boolean> {
  const inserted = await db
    .insert(paymentEvents)
    .values(event)
    .onConflictDoNothing({ target: paymentEvents.providerEventKey })
    .returning({ id: paymentEvents.id });
  return inserted.length > 0;
}

/**
 * Claims up to `limit` pending payments due for a check, oldest due first, and moves their next check to
 * `leaseUntil`, so another instance (or this one, next round) skips them while they are being checked.
 * Rows another instance is claiming are skipped, not waited for.
 */
export async function claimPaymentsDueForCheck(
  db: Database,
  options: { now: Date; leaseUntil: Date; limit: number },
): Promise<Payment[]> {
  const due = db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.nextCheckAt, options.now)))
    .orderBy(asc(payments.nextCheckAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(payments)
    .set({ nextCheckAt: options.leaseUntil })
    .where(and(inArray(payments.id, due), eq(payments.status, 'pending')))
    .returning();
}
