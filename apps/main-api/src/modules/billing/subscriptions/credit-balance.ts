import type { CreditBalanceReason, DatabaseExecutor, MailSubscription, Transaction } from '@platform/db';
import { creditBalanceEntries, mailSubscriptions } from '@platform/db/schema';
import { eq, sql } from 'drizzle-orm';

// The organization's credit balance: whole KES that downgrades and unapplied payments leave behind, used
// first by later subscription charges (upgrades, renewals) and never paid out. Every movement is a row in
// credit_balance_entries, once per (reason, reference); mail_subscriptions.credit_balance caches the sum
// and changes in the same transaction, its CHECK (>= 0) making an overdraw impossible. The database refuses
// edits and deletes of entries and, at commit, a cache that is not their sum (migration 0008). Callers hold
// the subscription row's lock (FOR UPDATE), so movements of one organization happen one at a time.

export interface CreditMovement {
  /** Whole KES above 0. */
  amount: number;
  reason: CreditBalanceReason;
  /** What caused it: `change:<id>` or `payment:<reference>`. */
  reference: string;
  description: string;
}

/** Adds credit. False (and nothing changes) when this movement was recorded before. */
export function addCredit(tx: Transaction, subscription: MailSubscription, movement: CreditMovement): Promise<boolean> {
  return record(tx, subscription, movement, movement.amount);
}

/** Uses credit; the CHECK on the cached balance refuses more than there is. False when recorded before. */
export function useCredit(tx: Transaction, subscription: MailSubscription, movement: CreditMovement): Promise<boolean> {
  return record(tx, subscription, movement, -movement.amount);
}

async function record(
  tx: Transaction,
  subscription: MailSubscription,
  movement: CreditMovement,
  signed: number,
): Promise<boolean> {
  if (!Number.isSafeInteger(movement.amount) || movement.amount <= 0) {
    throw new RangeError(`A credit movement must be a whole number of KES above 0 (got ${movement.amount})`);
  }
  const inserted = await tx
    .insert(creditBalanceEntries)
    .values({
      organizationId: subscription.organizationId,
      amount: signed,
      reason: movement.reason,
      reference: movement.reference,
      description: movement.description,
    })
    .onConflictDoNothing({ target: [creditBalanceEntries.reason, creditBalanceEntries.reference] })
    .returning({ id: creditBalanceEntries.id });
  if (inserted.length === 0) return false;
  await tx
    .update(mailSubscriptions)
    .set({ creditBalance: sql`${mailSubscriptions.creditBalance} + ${signed}` })
    .where(eq(mailSubscriptions.id, subscription.id));
  return true;
}

/** The balance as the entries say it is (their sum), for checks and audits. */
export async function creditBalanceFromEntries(db: DatabaseExecutor, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${creditBalanceEntries.amount}), 0)` })
    .from(creditBalanceEntries)
    .where(eq(creditBalanceEntries.organizationId, organizationId));
  return Number(row?.total ?? 0);
}
