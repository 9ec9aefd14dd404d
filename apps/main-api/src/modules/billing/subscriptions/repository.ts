import type {
  Database,
  DatabaseExecutor,
  MailSubscription,
  MailSubscriptionChange,
  MailSubscriptionStatus,
  NewMailSubscription,
  NewMailSubscriptionChange,
  RenewalReminderKind,
  Transaction,
} from '@platform/db';
import { preparedPerDatabase } from '@platform/db';
import { mailSubscriptionChanges, mailSubscriptionReminders, mailSubscriptions } from '@platform/db/schema';
import { and, asc, eq, exists, gt, inArray, lte, not, sql } from 'drizzle-orm';

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
 * The subscription most overdue for renewal (its renewal is due by `now`, it is active or past_due, and no
 * change of it is being charged), locked with FOR UPDATE SKIP LOCKED: instances running the renewal job at
 * once take different subscriptions. Undefined when none is due.
 */
export async function lockNextDueRenewal(tx: Transaction, now: Date): Promise<MailSubscription | undefined> {
  const charging = tx
    .select({ id: mailSubscriptionChanges.id })
    .from(mailSubscriptionChanges)
    .where(
      and(
        eq(mailSubscriptionChanges.subscriptionId, mailSubscriptions.id),
        eq(mailSubscriptionChanges.status, 'charging'),
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
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  return subscription;
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
 * different ones. Undefined when none is owed one.
 */
export async function lockNextDueReminder(
  tx: Transaction,
  now: Date,
  ahead: { oneDay: Date; sevenDays: Date },
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
      ),
    )
    .orderBy(asc(mailSubscriptions.renewalDueAt))
    .limit(1)
    .for('update', { of: mailSubscriptions, skipLocked: true });
  if (subscription?.renewalDueAt == null) return undefined;
  return { subscription, kind: subscription.renewalDueAt <= ahead.oneDay ? '1_day' : '7_days' };
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
