import type {
  Database,
  DatabaseExecutor,
  NewPayment,
  NewPaymentEvent,
  Payment,
  PaymentProvider,
  PaymentStatus,
  Transaction,
} from '@platform/db';
import { paymentEvents, payments } from '@platform/db/schema/payments';
import { and, eq, isNull, sql } from 'drizzle-orm';

// A payment's row and its events: what every way of starting, settling and looking up a payment writes and reads.

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

/**
 * The idempotent request that started a payment: the key's scope, the key, and the request's fingerprint
 * (method, route and body). Kept in the payment's `created` event, so a retry with the same key finds the
 * payment even when the first answer (a 503, say) was not stored for replay.
 */
export interface StartedBy {
  scope: string;
  key: string;
  fingerprint: string;
}

/** Inserts a pending payment and its `created` event in the caller's transaction. */
export async function insertPendingPayment(
  tx: Transaction,
  values: NewPendingPayment,
  startedBy?: StartedBy,
): Promise<Payment> {
  const [payment] = await tx
    .insert(payments)
    .values({ ...values, status: 'pending', updatedAt: values.createdAt })
    .returning();
  if (payment === undefined) throw new Error('Inserting the payment returned no row');
  await tx.insert(paymentEvents).values({
    paymentId: payment.id,
    type: 'created',
    source: 'api',
    payload: {
      amount: payment.amount,
      method: payment.method,
      purpose: payment.purpose,
      provider: payment.provider,
      ...(startedBy === undefined ? {} : { idempotency: startedBy }),
    },
    createdAt: values.createdAt,
  });
  return payment;
}

/**
 * The provider may have acted on a request whose answer never came: the payment stays pending, with the
 * provider's reference when it is known in advance (card providers use ours), and is asked about at
 * `nextCheckAt` by the reconciliation job.
 */
export async function awaitConfirmation(
  db: Database,
  payment: Payment,
  confirmation: { providerReference?: string; nextCheckAt: Date; now: Date },
): Promise<void> {
  await db.transaction(async (tx) => {
    const { providerReference } = confirmation;
    if (providerReference !== undefined) await lockProviderReference(tx, payment.provider, providerReference);
    await tx
      .update(payments)
      .set({
        ...(providerReference === undefined
          ? {}
          : { providerReference: sql`coalesce(${payments.providerReference}, ${providerReference})` }),
        nextCheckAt: confirmation.nextCheckAt,
        updatedAt: confirmation.now,
      })
      .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
  });
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

/**
 * Moves the payment to `to` if it is still `from` (a conditional UPDATE, so concurrent messages move it once),
 * recording why it did not succeed and when it ended. Undefined when it was no longer `from`.
 */
export async function movePaymentStatus(
  tx: DatabaseExecutor,
  paymentId: string,
  change: {
    from: PaymentStatus;
    to: PaymentStatus;
    reason: string | null;
    now: Date;
    /** A success's M-Pesa receipt number, kept in the same update unless the payment has one already. */
    mpesaReceiptNumber?: string | undefined;
  },
): Promise<Payment | undefined> {
  const { mpesaReceiptNumber } = change;
  const [updated] = await tx
    .update(payments)
    .set({
      status: change.to,
      failureReason: change.reason,
      completedAt: change.now,
      updatedAt: change.now,
      ...(mpesaReceiptNumber === undefined
        ? {}
        : { mpesaReceiptNumber: sql`coalesce(${payments.mpesaReceiptNumber}, ${mpesaReceiptNumber})` }),
    })
    .where(and(eq(payments.id, paymentId), eq(payments.status, change.from)))
    .returning();
  return updated;
}

/**
 * Keeps the M-Pesa receipt number of a payment that succeeded, unless it has one already: it is set once and a later
 * message (a redelivery, another report of the same success) never changes it
 * (docs/decisions.md#m-pesa-receipt-number). Undefined when nothing changed.
 */
export async function keepMpesaReceiptNumber(
  tx: DatabaseExecutor,
  paymentId: string,
  mpesaReceiptNumber: string,
): Promise<Payment | undefined> {
  const [kept] = await tx
    .update(payments)
    .set({ mpesaReceiptNumber })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'succeeded'), isNull(payments.mpesaReceiptNumber)))
    .returning();
  return kept;
}

/** Records a move of the payment's status, with what moved it. */
export async function recordStatusChange(
  tx: DatabaseExecutor,
  change: {
    paymentId: string;
    source: string;
    from: PaymentStatus;
    to: PaymentStatus;
    reason: string | null;
    createdAt: Date;
  },
): Promise<void> {
  await tx.insert(paymentEvents).values({
    paymentId: change.paymentId,
    type: 'status_changed',
    source: change.source,
    fromStatus: change.from,
    toStatus: change.to,
    payload: change.reason === null ? null : { reason: change.reason },
    createdAt: change.createdAt,
  });
}

/** Links the payment to the saved method it was paid with; undefined when the payment is gone. */
export async function linkPaymentMethod(
  tx: DatabaseExecutor,
  paymentId: string,
  paymentMethodId: string,
): Promise<Payment | undefined> {
  const [linked] = await tx.update(payments).set({ paymentMethodId }).where(eq(payments.id, paymentId)).returning();
  return linked;
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
