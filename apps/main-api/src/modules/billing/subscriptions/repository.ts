import type {
  Database,
  DatabaseExecutor,
  MailSubscription,
  MailSubscriptionChange,
  MailSubscriptionStatus,
  NewMailSubscription,
  NewMailSubscriptionChange,
  Transaction,
} from '@platform/db';
import { preparedPerDatabase } from '@platform/db';
import { mailSubscriptionChanges, mailSubscriptions } from '@platform/db/schema/mail-subscriptions';
import { and, eq, sql } from 'drizzle-orm';

// The rows every use case reads and writes: the organization's subscription and its changes. The renewal job's
// queues are in renew-repository.ts, the credit balance's entries in credit-balance-repository.ts.

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

/** The organization's subscription, read without a lock, in the caller's transaction if it has one. */
export async function findSubscription(
  db: DatabaseExecutor,
  organizationId: string,
): Promise<MailSubscription | undefined> {
  const [row] = await db.select().from(mailSubscriptions).where(eq(mailSubscriptions.organizationId, organizationId));
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
 * Moves a change still being paid for onto the subscription's new version: what a failed renewal attempt does to a
 * renewal invoice that stays payable (its terms and period have not changed, only the past_due state).
 */
export async function rebaseChange(tx: Transaction, changeId: string, version: number): Promise<void> {
  await tx
    .update(mailSubscriptionChanges)
    .set({ baseVersion: version })
    .where(and(eq(mailSubscriptionChanges.id, changeId), eq(mailSubscriptionChanges.status, 'charging')));
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
