import type {
  Database,
  DatabaseExecutor,
  MailSubscription,
  MailSubscriptionChange,
  MailSubscriptionStatus,
  NewMailSubscription,
  NewMailSubscriptionChange,
  Payment,
  RenewalReminderKind,
  Transaction,
} from '@platform/db';
import { preparedPerDatabase } from '@platform/db';
import {
  invoices,
  mailSubscriptionChanges,
  mailSubscriptionReminders,
  mailSubscriptions,
  payments,
} from '@platform/db/schema';
import { and, asc, desc, eq, exists, gt, inArray, lte, not, notInArray, type SQL, sql } from 'drizzle-orm';

const subscriptionOf = preparedPerDatabase((db) =>
  db
    .select()
    .from(mailSubscriptions)
    .where(eq(mailSubscriptions.organizationId, sql.placeholder('organizationId')))
    .prepare('mail_subscription_of_organization'),
);

/** The organization's subscription, read without a lock (a prepared query: the preview is a busy endpoint). */
export async function readSubscription(db: Database, organizationId: string): Promise<MailSubscription | undefined> {
  const [row] = await subscriptionOf(db).execute({ organizationId });
  return row;
}

/** The organization's subscription, locked until the transaction ends: changes to it take turns. */
export async function lockSubscription(tx: Transaction, organizationId: string): Promise<MailSubscription | undefined> {
  const [row] = await tx
    .select()
    .from(mailSubscriptions)
    .where(eq(mailSubscriptions.organizationId, organizationId))
    .for('update');
  return row;
}

/**
 * Starts the organization's subscription. Undefined when the organization already has one (another purchase
 * started it meanwhile): nothing is written.
 */
export async function insertSubscriptionUnlessExists(
  tx: Transaction,
  values: NewMailSubscription,
): Promise<MailSubscription | undefined> {
  const [started] = await tx
    .insert(mailSubscriptions)
    .values(values)
    .onConflictDoNothing({ target: mailSubscriptions.organizationId })
    .returning();
  return started;
}

/**
 * The subscription most overdue for renewal (its renewal is due by `now`, it is active or past_due, no change of it
 * is being charged to a card: a renewal invoice awaiting its bank transfer does not hold it back,
 * docs/decisions.md#renewal-invoices), locked with FOR UPDATE SKIP LOCKED: instances running the renewal job at
 * once take different subscriptions. `skip` leaves out those this round already left for later. Undefined when none
 * is due.
 */
export async function lockNextDueRenewal(
  tx: Transaction,
  now: Date,
  skip: readonly string[] = [],
): Promise<MailSubscription | undefined> {
  const charging = tx
    .select({ id: mailSubscriptionChanges.id })
    .from(mailSubscriptionChanges)
    .where(
      and(
        eq(mailSubscriptionChanges.subscriptionId, mailSubscriptions.id),
        eq(mailSubscriptionChanges.status, 'charging'),
        not(exists(bankTransferOf(tx))),
      ),
    );
  const [subscription] = await tx
    .select()
    .from(mailSubscriptions)
    .where(
      and(
        lte(mailSubscriptions.renewalDueAt, now),
        inArray(mailSubscriptions.status, ['active', 'past_due']),
        not(exists(charging)),
        skip.length === 0 ? undefined : notInArray(mailSubscriptions.id, [...skip]),
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  return subscription;
}

/** The bank transfer paying the change of the enclosing query, if it is paid by one. */
function bankTransferOf(db: DatabaseExecutor) {
  return db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.id, mailSubscriptionChanges.paymentId), eq(payments.channel, 'bank_transfer')));
}

/**
 * The subscription with the soonest renewal that is owed its renewal invoice now (docs/decisions.md#renewal-invoices):
 * active, not set to cancel, renewing after `now` and by `until`, with no change being paid for (no invoice
 * already), no saved card of its own, and last paid for by bank transfer (the latest successful purchase or renewal
 * of its organization). Locked with FOR UPDATE SKIP LOCKED; `skip` leaves out those this round found nothing to
 * invoice for (the credit balance pays the renewal).
 */
export async function lockNextRenewalToInvoice(
  tx: Transaction,
  now: Date,
  until: Date,
  skip: readonly string[],
): Promise<MailSubscription | undefined> {
  const charging = tx
    .select({ id: mailSubscriptionChanges.id })
    .from(mailSubscriptionChanges)
    .where(
      and(
        eq(mailSubscriptionChanges.subscriptionId, mailSubscriptions.id),
        eq(mailSubscriptionChanges.status, 'charging'),
      ),
    );
  const lastPaidWith = tx
    .select({ channel: payments.channel })
    .from(payments)
    .where(
      and(
        eq(payments.organizationId, mailSubscriptions.organizationId),
        eq(payments.status, 'succeeded'),
        inArray(payments.purpose, ['mail_subscription', 'mail_subscription_renewal']),
      ),
    )
    .orderBy(desc(payments.completedAt))
    .limit(1);
  const [subscription] = await tx
    .select()
    .from(mailSubscriptions)
    .where(
      and(
        eq(mailSubscriptions.status, 'active'),
        eq(mailSubscriptions.cancelAtPeriodEnd, false),
        gt(mailSubscriptions.renewalDueAt, now),
        lte(mailSubscriptions.renewalDueAt, until),
        sql`${mailSubscriptions.paymentMethodId} is null`,
        not(exists(charging)),
        sql`(${lastPaidWith}) = 'bank_transfer'`,
        skip.length === 0 ? undefined : notInArray(mailSubscriptions.id, [...skip]),
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  return subscription;
}

/** A renewal change still being paid for by bank transfer (a renewal invoice), of the subscription or organization. */
function outstandingRenewalInvoice(of: { subscriptionId: string } | { organizationId: string }): SQL | undefined {
  return and(
    'subscriptionId' in of
      ? eq(mailSubscriptionChanges.subscriptionId, of.subscriptionId)
      : eq(mailSubscriptionChanges.organizationId, of.organizationId),
    eq(mailSubscriptionChanges.status, 'charging'),
    eq(mailSubscriptionChanges.kind, 'renewal'),
    eq(payments.channel, 'bank_transfer'),
  );
}

async function findOutstandingRenewalInvoice(
  tx: Transaction,
  of: { subscriptionId: string } | { organizationId: string },
): Promise<{ changeId: string; paymentId: string } | undefined> {
  const [found] = await tx
    .select({ changeId: mailSubscriptionChanges.id, paymentId: payments.id })
    .from(mailSubscriptionChanges)
    .innerJoin(payments, eq(payments.id, mailSubscriptionChanges.paymentId))
    .where(outstandingRenewalInvoice(of));
  return found;
}

async function lockChargingChange(tx: Transaction, changeId: string): Promise<MailSubscriptionChange | undefined> {
  const [change] = await tx
    .select()
    .from(mailSubscriptionChanges)
    .where(eq(mailSubscriptionChanges.id, changeId))
    .for('update');
  return change?.status === 'charging' ? change : undefined;
}

/**
 * The subscription's renewal invoice still being paid for: its change (locked) and its bank transfer, locked with
 * SKIP LOCKED so that the job never waits for a confirmation that holds it (confirmations lock the payment first,
 * then the change and the subscription). `busy` when a confirmation holds it; undefined when there is none.
 */
export async function lockRenewalInvoiceOf(
  tx: Transaction,
  subscriptionId: string,
): Promise<{ change: MailSubscriptionChange; payment: Payment } | 'busy' | undefined> {
  const found = await findOutstandingRenewalInvoice(tx, { subscriptionId });
  if (found === undefined) return undefined;
  const [payment] = await tx
    .select()
    .from(payments)
    .where(eq(payments.id, found.paymentId))
    .for('update', { skipLocked: true });
  if (payment === undefined) return 'busy';
  const change = await lockChargingChange(tx, found.changeId);
  return change === undefined ? 'busy' : { change, payment };
}

/**
 * The organization's renewal invoice still being paid for, locked as a confirmation locks it (its payment first, then
 * its change), so that a cancel, which then locks the subscription, never waits in the other order. Undefined when
 * there is none.
 */
export async function lockRenewalInvoiceOfOrganization(
  tx: Transaction,
  organizationId: string,
): Promise<{ change: MailSubscriptionChange; payment: Payment } | undefined> {
  const found = await findOutstandingRenewalInvoice(tx, { organizationId });
  if (found === undefined) return undefined;
  const [payment] = await tx.select().from(payments).where(eq(payments.id, found.paymentId)).for('update');
  const change = await lockChargingChange(tx, found.changeId);
  return payment === undefined || change === undefined ? undefined : { change, payment };
}

/** The number of the subscription's renewal invoice still being paid for, and whether it is paid; read unlocked. */
export async function renewalInvoiceNumberOf(
  db: DatabaseExecutor,
  subscriptionId: string,
): Promise<{ number: string; paid: boolean } | undefined> {
  const [found] = await db
    .select({ number: invoices.number, status: payments.status })
    .from(mailSubscriptionChanges)
    .innerJoin(payments, eq(payments.id, mailSubscriptionChanges.paymentId))
    .innerJoin(invoices, eq(invoices.paymentId, payments.id))
    .where(outstandingRenewalInvoice({ subscriptionId }));
  return found === undefined ? undefined : { number: found.number, paid: found.status === 'succeeded' };
}

/**
 * Moves a change still being paid for onto the subscription's new version: what a failed renewal attempt does to a
 * renewal invoice that stays payable (its terms and period have not changed, only the past_due state).
 */
export async function rebaseChange(tx: Transaction, changeId: string, version: number): Promise<void> {
  await tx
    .update(mailSubscriptionChanges)
    .set({ baseVersion: version })
    .where(and(eq(mailSubscriptionChanges.id, changeId), eq(mailSubscriptionChanges.status, 'charging')));
}

/** The subscription's status now, read without a lock. */
export async function statusOfSubscription(
  db: DatabaseExecutor,
  id: string,
): Promise<MailSubscriptionStatus | undefined> {
  const [row] = await db
    .select({ status: mailSubscriptions.status })
    .from(mailSubscriptions)
    .where(eq(mailSubscriptions.id, id));
  return row?.status;
}

export async function lockSubscriptionById(tx: Transaction, id: string): Promise<MailSubscription | undefined> {
  const [row] = await tx.select().from(mailSubscriptions).where(eq(mailSubscriptions.id, id)).for('update');
  return row;
}

/**
 * Updates the subscription only if it is still at `version`, and moves it to the next version. Undefined
 * when it has changed since (the caller's decision was about an older state).
 */
export async function updateSubscriptionAt(
  tx: Transaction,
  subscription: MailSubscription,
  version: number,
  values: Partial<Omit<MailSubscription, 'id' | 'organizationId' | 'version' | 'creditBalance'>>,
): Promise<MailSubscription | undefined> {
  const [updated] = await tx
    .update(mailSubscriptions)
    .set({ ...values, version: version + 1 })
    .where(and(eq(mailSubscriptions.id, subscription.id), eq(mailSubscriptions.version, version)))
    .returning();
  return updated;
}

/**
 * Sets or clears the cancel flag. The version stays: nothing decided on the subscription's state depends on it, so
 * a renewal being charged still applies (docs/decisions.md#subscription-cancellation). The caller holds the row's lock.
 */
export async function setCancellation(
  tx: Transaction,
  subscriptionId: string,
  values: { cancelAtPeriodEnd: boolean; canceledAt: Date | null },
): Promise<MailSubscription> {
  const [row] = await tx
    .update(mailSubscriptions)
    .set(values)
    .where(eq(mailSubscriptions.id, subscriptionId))
    .returning();
  if (row === undefined) throw new Error('The subscription to set the cancel flag of is gone');
  return row;
}

/**
 * The subscription with the soonest renewal that is owed a reminder now (docs/decisions.md#renewal-reminders): active,
 * not set to cancel, renewing after `now` and at most 7 days later, and not yet reminded of that renewal with the
 * reminder due (`1_day` within a day of it, `7_days` before). Locked with FOR UPDATE SKIP LOCKED, so instances take
 * different ones; `skip` leaves out those this round left for later. Undefined when none is owed one.
 */
export async function lockNextDueReminder(
  tx: Transaction,
  now: Date,
  ahead: { oneDay: Date; sevenDays: Date },
  skip: readonly string[] = [],
): Promise<{ subscription: MailSubscription; kind: RenewalReminderKind } | undefined> {
  const dueKind = sql`case when ${mailSubscriptions.renewalDueAt} <= ${sql.param(ahead.oneDay, mailSubscriptions.renewalDueAt)} then '1_day' else '7_days' end`;
  const reminded = tx
    .select({ id: mailSubscriptionReminders.id })
    .from(mailSubscriptionReminders)
    .where(
      and(
        eq(mailSubscriptionReminders.subscriptionId, mailSubscriptions.id),
        eq(mailSubscriptionReminders.renewsAt, mailSubscriptions.renewalDueAt),
        sql`${mailSubscriptionReminders.kind} = ${dueKind}`,
      ),
    );
  const [subscription] = await tx
    .select()
    .from(mailSubscriptions)
    .where(
      and(
        eq(mailSubscriptions.status, 'active'),
        eq(mailSubscriptions.cancelAtPeriodEnd, false),
        gt(mailSubscriptions.renewalDueAt, now),
        lte(mailSubscriptions.renewalDueAt, ahead.sevenDays),
        not(exists(reminded)),
        skip.length === 0 ? undefined : notInArray(mailSubscriptions.id, [...skip]),
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  if (subscription?.renewalDueAt == null) return undefined;
  return { subscription, kind: subscription.renewalDueAt <= ahead.oneDay ? '1_day' : '7_days' };
}

/**
 * The subscription's change still being paid for, locked, with the payment paying it (read, not locked): what a
 * retirement ends (docs/decisions.md#retired-organizations-take-no-money). Undefined when there is none.
 */
export async function lockChargingChangeOf(
  tx: Transaction,
  subscriptionId: string,
): Promise<{ change: MailSubscriptionChange; payment: Payment | null } | undefined> {
  const [found] = await tx
    .select({ change: mailSubscriptionChanges, payment: payments })
    .from(mailSubscriptionChanges)
    .leftJoin(payments, eq(payments.id, mailSubscriptionChanges.paymentId))
    .where(
      and(eq(mailSubscriptionChanges.subscriptionId, subscriptionId), eq(mailSubscriptionChanges.status, 'charging')),
    )
    .for('update', { of: mailSubscriptionChanges });
  return found;
}

/**
 * Records a reminder of a renewal. False when that reminder of that renewal was recorded already (another instance
 * sent it): the unique index decides, so it is sent once.
 */
export async function insertReminderOnce(
  tx: Transaction,
  values: { subscriptionId: string; kind: RenewalReminderKind; renewsAt: Date; sentAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(mailSubscriptionReminders)
    .values(values)
    .onConflictDoNothing({
      target: [
        mailSubscriptionReminders.subscriptionId,
        mailSubscriptionReminders.renewsAt,
        mailSubscriptionReminders.kind,
      ],
    })
    .returning({ id: mailSubscriptionReminders.id });
  return rows.length > 0;
}

export async function findChargingChange(
  db: DatabaseExecutor,
  subscriptionId: string,
): Promise<MailSubscriptionChange | undefined> {
  const [row] = await db
    .select()
    .from(mailSubscriptionChanges)
    .where(
      and(eq(mailSubscriptionChanges.subscriptionId, subscriptionId), eq(mailSubscriptionChanges.status, 'charging')),
    );
  return row;
}

export async function findChange(db: DatabaseExecutor, id: string): Promise<MailSubscriptionChange | undefined> {
  const [row] = await db.select().from(mailSubscriptionChanges).where(eq(mailSubscriptionChanges.id, id));
  return row;
}

/** The change a card charge pays for, read without a lock. */
export async function findChangeOfPayment(
  db: DatabaseExecutor,
  paymentId: string,
): Promise<MailSubscriptionChange | undefined> {
  const [row] = await db.select().from(mailSubscriptionChanges).where(eq(mailSubscriptionChanges.paymentId, paymentId));
  return row;
}

/** The change a card charge paid for, locked until the transaction ends. */
export async function lockChangeOfPayment(
  tx: Transaction,
  paymentId: string,
): Promise<MailSubscriptionChange | undefined> {
  const [row] = await tx
    .select()
    .from(mailSubscriptionChanges)
    .where(eq(mailSubscriptionChanges.paymentId, paymentId))
    .for('update');
  return row;
}

export async function insertChange(
  tx: Transaction,
  values: NewMailSubscriptionChange,
): Promise<MailSubscriptionChange> {
  const [row] = await tx.insert(mailSubscriptionChanges).values(values).returning();
  if (row === undefined) throw new Error('Inserting the subscription change returned no row');
  return row;
}

/** Ends a change that is still being charged; undefined when it had already ended. */
export async function finishChange(
  tx: Transaction,
  change: MailSubscriptionChange,
  outcome: { status: 'applied' | 'failed' | 'superseded'; at: Date; failureReason?: string | null },
): Promise<MailSubscriptionChange | undefined> {
  const [row] = await tx
    .update(mailSubscriptionChanges)
    .set({ status: outcome.status, completedAt: outcome.at, failureReason: outcome.failureReason ?? null })
    .where(and(eq(mailSubscriptionChanges.id, change.id), eq(mailSubscriptionChanges.status, 'charging')))
    .returning();
  return row;
}
