import type { CreditBalanceReason, DatabaseExecutor } from '@platform/db';
import { creditBalanceEntries } from '@platform/db/schema/credit-balance-entries';
import { mailSubscriptions } from '@platform/db/schema/mail-subscriptions';
import { and, eq, inArray, sql } from 'drizzle-orm';

/**
 * Records one movement of the organization's credit (`amount` signed: negative uses credit). False, and nothing
 * is written, when a movement with the same reason and reference was recorded before.
 */
export async function insertCreditEntry(
  db: DatabaseExecutor,
  entry: {
    organizationId: string;
    amount: number;
    reason: CreditBalanceReason;
    reference: string;
    description: string;
  },
): Promise<boolean> {
  const inserted = await db
    .insert(creditBalanceEntries)
    .values(entry)
    .onConflictDoNothing({ target: [creditBalanceEntries.reason, creditBalanceEntries.reference] })
    .returning({ id: creditBalanceEntries.id });
  return inserted.length > 0;
}

/** Moves the balance cached on the subscription row by `amount` (signed); its CHECK refuses a negative balance. */
export async function moveCachedCreditBalance(
  db: DatabaseExecutor,
  subscriptionId: string,
  amount: number,
): Promise<void> {
  await db
    .update(mailSubscriptions)
    .set({ creditBalance: sql`${mailSubscriptions.creditBalance} + ${amount}` })
    .where(eq(mailSubscriptions.id, subscriptionId));
}

/** The balance as the entries say it is (their sum), for checks and audits. */
export async function creditBalanceFromEntries(db: DatabaseExecutor, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${creditBalanceEntries.amount}), 0)` })
    .from(creditBalanceEntries)
    .where(eq(creditBalanceEntries.organizationId, organizationId));
  return Number(row?.total ?? 0);
}

/**
 * Why a payment's money went to the credit balance instead of what it was for (a purchase while another subscription
 * was active, a charge whose change could no longer apply): the description of its movement; undefined when it has none.
 */
export async function findCreditedPayment(
  db: DatabaseExecutor,
  reference: string,
): Promise<{ description: string | null } | undefined> {
  const [entry] = await db
    .select({ description: creditBalanceEntries.description })
    .from(creditBalanceEntries)
    .where(
      and(
        inArray(creditBalanceEntries.reason, ['duplicate_purchase', 'unapplied_charge']),
        eq(creditBalanceEntries.reference, reference),
      ),
    );
  return entry;
}

/** True when the organization's credit balance ever moved (docs/decisions.md#organization-deletion). */
export async function hasCreditHistory(db: DatabaseExecutor, organizationId: string): Promise<boolean> {
  const [credit] = await db
    .select({ id: creditBalanceEntries.id })
    .from(creditBalanceEntries)
    .where(eq(creditBalanceEntries.organizationId, organizationId))
    .limit(1);
  return credit !== undefined;
}
