import {
  apiTimeOf,
  type Database,
  type DatabaseExecutor,
  databaseErrorOf,
  type NewPayment,
  type NewPaymentEvent,
  type Payment,
  type PaymentEvent,
  type PaymentMethodKind,
  type PaymentProvider,
  type PaymentPurpose,
  type PaymentStatus,
  preparedPerDatabase,
  prepareWithRowsMapper,
  type Transaction,
} from '@platform/db';
import { invoices, mailSubscriptions, paymentEvents, payments, receipts, users } from '@platform/db/schema';
import { cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, asc, desc, eq, gt, gte, inArray, isNull, like, lte, ne, notExists, type SQL, sql } from 'drizzle-orm';

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
 * A payment as the API shows it: with the number of its receipt, null until it has succeeded, and of its invoice, null
 * but for a bank transfer.
 */
export interface PaymentWithReceipt {
  payment: Payment;
  receiptNumber: string | null;
  invoiceNumber: string | null;
}

// The checkout page polls a payment while the payer confirms it (an M-Pesa prompt on the phone): prepared once per
// database, so a poll is one round trip, not a parse and a run (docs/decisions.md#polled-reads-are-prepared-statements).
const organizationPaymentByReference = preparedPerDatabase((db) =>
  db
    .select({ payment: payments, receiptNumber: receipts.number, invoiceNumber: invoices.number })
    .from(payments)
    .leftJoin(receipts, eq(receipts.paymentId, payments.id))
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .where(
      and(
        eq(payments.reference, sql.placeholder('reference')),
        eq(payments.organizationId, sql.placeholder('organizationId')),
      ),
    )
    .prepare('billing_organization_payment'),
);

/** One of the organization's payments by reference; undefined for another organization's. Outside any transaction. */
export async function findOrganizationPayment(
  db: Database,
  organizationId: string,
  reference: string,
): Promise<PaymentWithReceipt | undefined> {
  const [found] = await organizationPaymentByReference(db).execute({ organizationId, reference });
  return found;
}

export interface PaymentListQuery {
  organizationId: string;
  status: PaymentStatus | undefined;
  method: PaymentMethodKind | undefined;
  purpose: PaymentPurpose | undefined;
  /** Started at or after this time. */
  from: Date | undefined;
  /** Started before this time. */
  to: Date | undefined;
  /** Only the payments after this position (a decoded cursor). */
  after: PagePosition | undefined;
  limit: number;
}

/** What a payment's answer is made of, its times already written as the API writes them (ISO, milliseconds). */
export type PaymentViewFields = Pick<
  Payment,
  | 'reference'
  | 'status'
  | 'method'
  | 'channel'
  | 'purpose'
  | 'amount'
  | 'phone'
  | 'paymentMethodId'
  | 'plan'
  | 'seats'
  | 'billingCycle'
  | 'checkoutUrl'
  | 'failureReason'
  | 'accountReference'
  | 'mpesaReceiptNumber'
> & { receiptNumber: string | null; invoiceNumber: string | null; createdAt: string; completedAt: string | null };

/** A payment of a list, with its id and position for the next page's cursor. */
export interface PaymentListRow {
  id: string;
  position: string;
  fields: PaymentViewFields;
}

/** Which filters a list query has: each set of them is its own prepared statement. */
type ListFilters = Record<'status' | 'method' | 'purpose' | 'from' | 'to' | 'after', boolean>;

// The list as prepared statements, one per set of filters present (at most 64), built once per database with
// placeholders and read by position into the answer's shape: building the query and mapping 50 rows of every payment
// column through drizzle cost the service four times the CPU of the query itself
// (docs/benchmarks.md#the-payments-list-get-v1billingpayments-26-nov). Each condition stays one the index
// payments_organization_idx serves, so a page deep in a long list is read from the cursor on.
const listStatements = preparedPerDatabase(() => new Map<string, ReturnType<typeof prepareList>>());

/** The statement's name, and its key among a database's list statements: which filters it has, as bits. */
function listStatementName(filters: ListFilters): string {
  return `payments_list_${Object.values(filters)
    .map((present) => (present ? 1 : 0))
    .join('')}`;
}

function prepareList(db: Database, filters: ListFilters) {
  const placeholder = (name: string) => sql.placeholder(name);
  const conditions: SQL[] = [sql`${payments.organizationId} = ${placeholder('organizationId')}::uuid`];
  if (filters.status) conditions.push(sql`${payments.status} = ${placeholder('status')}::text`);
  if (filters.method) conditions.push(sql`${payments.method} = ${placeholder('method')}::text`);
  if (filters.purpose) conditions.push(sql`${payments.purpose} = ${placeholder('purpose')}::text`);
  if (filters.from) conditions.push(sql`${payments.createdAt} >= ${placeholder('from')}::timestamptz`);
  if (filters.to) conditions.push(sql`${payments.createdAt} < ${placeholder('to')}::timestamptz`);
  if (filters.after) {
    conditions.push(
      sql`(${payments.createdAt}, ${payments.id}) < (${placeholder('afterAt')}::timestamptz, ${placeholder('afterId')}::uuid)`,
    );
  }
  return prepareWithRowsMapper(
    db,
    listStatementName(filters),
    db
      .select({
        id: payments.id,
        position: cursorTimeOf(payments.createdAt),
        reference: payments.reference,
        status: payments.status,
        method: payments.method,
        channel: payments.channel,
        purpose: payments.purpose,
        amount: payments.amount,
        phone: payments.phone,
        paymentMethodId: payments.paymentMethodId,
        plan: payments.plan,
        seats: payments.seats,
        billingCycle: payments.billingCycle,
        checkoutUrl: payments.checkoutUrl,
        failureReason: payments.failureReason,
        receiptNumber: receipts.number,
        invoiceNumber: invoices.number,
        accountReference: payments.accountReference,
        mpesaReceiptNumber: payments.mpesaReceiptNumber,
        createdAt: apiTimeOf(payments.createdAt),
        completedAt: apiTimeOf<string | null>(payments.completedAt),
      })
      .from(payments)
      .leftJoin(receipts, eq(receipts.paymentId, payments.id))
      .leftJoin(invoices, eq(invoices.paymentId, payments.id))
      .where(and(...conditions))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(sql.placeholder('limit')),
    (rows) => rows.map(listRowOf),
  );
}

/** A row of the list statement (its cells in select order) as the answer shows the payment. */
function listRowOf(cells: unknown[]): PaymentListRow {
  const [id, position, reference, status, method, channel, purpose, amount, phone, paymentMethodId, plan, seats] =
    cells as [
      string,
      string,
      string,
      Payment['status'],
      Payment['method'],
      Payment['channel'],
      Payment['purpose'],
      string | number,
      string | null,
      string | null,
      Payment['plan'],
      number | null,
    ];
  const [
    billingCycle,
    checkoutUrl,
    failureReason,
    receiptNumber,
    invoiceNumber,
    accountReference,
    mpesaReceiptNumber,
    createdAt,
    completedAt,
  ] = cells.slice(12) as [
    Payment['billingCycle'],
    string | null,
    string | null,
    string | null,
    string | null,
    string | null,
    string | null,
    string,
    string | null,
  ];
  return {
    id,
    position,
    fields: {
      reference,
      status,
      method,
      channel,
      purpose,
      amount: Number(amount),
      phone,
      paymentMethodId,
      plan,
      seats,
      billingCycle,
      checkoutUrl,
      failureReason,
      accountReference,
      mpesaReceiptNumber,
      receiptNumber,
      invoiceNumber,
      createdAt,
      completedAt,
    },
  };
}

/**
 * Up to `limit` of the organization's payments that match, newest first, each with its id and position for the next page's cursor (served by payments_organization_idx). Runs on the database itself, never in a
 * transaction (a prepared statement per database).
 */
export function listPaymentRows(db: Database, query: PaymentListQuery): Promise<PaymentListRow[]> {
  const filters: ListFilters = {
    status: query.status !== undefined,
    method: query.method !== undefined,
    purpose: query.purpose !== undefined,
    from: query.from !== undefined,
    to: query.to !== undefined,
    after: query.after !== undefined,
  };
  const statements = listStatements(db);
  const key = listStatementName(filters);
  let statement = statements.get(key);
  if (statement === undefined) {
    statement = prepareList(db, filters);
    statements.set(key, statement);
  }
  return statement.execute({
    organizationId: query.organizationId,
    status: query.status,
    method: query.method,
    purpose: query.purpose,
    from: query.from?.toISOString(),
    to: query.to?.toISOString(),
    afterAt: query.after?.createdAt,
    afterId: query.after?.id,
    limit: query.limit,
  });
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

/** The email of a user (the payer), or undefined when there is no such user. */
export async function findUserEmail(db: DatabaseExecutor, userId: string): Promise<string | undefined> {
  const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user?.email;
}

/** Whether the organization has a mail subscription that is active and inside its period at `now`. */
export async function hasActiveSubscription(db: DatabaseExecutor, organizationId: string, now: Date): Promise<boolean> {
  const [active] = await db
    .select({ id: mailSubscriptions.id })
    .from(mailSubscriptions)
    .where(
      and(
        eq(mailSubscriptions.organizationId, organizationId),
        eq(mailSubscriptions.status, 'active'),
        gt(mailSubscriptions.currentPeriodEnd, now),
      ),
    );
  return active !== undefined;
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
