import type {
  ApiKeyOwner,
  DatabaseExecutor,
  LedgerAccount,
  LedgerTransactionKind,
  Transaction,
  Wallet,
} from '@platform/db';
import { ledgerEntries, ledgerTransactions, wallets } from '@platform/db/schema';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';

// Every statement of the wallet ledger. The functions take the executor first, so they run in the caller's
// transaction.

/** Creates the wallet of an organization in an environment; does nothing when it exists. */
export async function insertWalletIfMissing(db: DatabaseExecutor, ref: ApiKeyOwner): Promise<void> {
  await db
    .insert(wallets)
    .values({ organizationId: ref.organizationId, environment: ref.environment })
    .onConflictDoNothing({ target: [wallets.organizationId, wallets.environment] });
}

export async function findWallet(db: DatabaseExecutor, ref: ApiKeyOwner): Promise<Wallet | undefined> {
  const [wallet] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.organizationId, ref.organizationId), eq(wallets.environment, ref.environment)));
  return wallet;
}

/** The wallet row, locked until the transaction ends. */
export async function lockWalletRow(tx: Transaction, walletId: string): Promise<Wallet | undefined> {
  const [locked] = await tx.select().from(wallets).where(eq(wallets.id, walletId)).for('update');
  return locked;
}

/** The movement of a kind recorded for a reference, if any. */
export async function findLedgerTransaction(db: DatabaseExecutor, kind: LedgerTransactionKind, reference: string) {
  const [row] = await db
    .select({ id: ledgerTransactions.id, walletId: ledgerTransactions.walletId })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, kind), eq(ledgerTransactions.reference, reference)));
  return row;
}

export async function findHold(db: DatabaseExecutor, reference: string) {
  const [hold] = await db
    .select()
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, 'hold'), eq(ledgerTransactions.reference, reference)));
  return hold;
}

/** The captures and releases recorded for a hold's reference. */
export function findHoldResolutions(db: DatabaseExecutor, reference: string) {
  return db
    .select({ id: ledgerTransactions.id, kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(and(inArray(ledgerTransactions.kind, ['capture', 'release']), eq(ledgerTransactions.reference, reference)));
}

export async function insertLedgerTransaction(
  db: DatabaseExecutor,
  values: {
    walletId: string;
    kind: LedgerTransactionKind;
    amount: number;
    reference: string;
    description: string | null;
    availableAfter: number;
    heldAfter: number;
  },
): Promise<{ id: string } | undefined> {
  const [transaction] = await db
    .insert(ledgerTransactions)
    // The time of the insert, not of the transaction's start: the caller holds the wallet's lock, so the wallet's
    // movements are in the order they happened (docs/decisions.md#balance-after-each-movement).
    .values({ ...values, createdAt: sql`clock_timestamp()` })
    .returning({ id: ledgerTransactions.id });
  return transaction;
}

export async function insertLedgerEntries(
  db: DatabaseExecutor,
  entries: Array<{ transactionId: string; walletId: string; account: LedgerAccount; amount: number }>,
): Promise<void> {
  await db.insert(ledgerEntries).values(entries);
}

/** Adds the (signed) changes to the wallet's cached balances and returns the updated row. */
export async function addToWalletBalances(
  db: DatabaseExecutor,
  walletId: string,
  change: { available: number; held: number },
): Promise<Wallet | undefined> {
  const [updated] = await db
    .update(wallets)
    .set({
      availableBalance: sql`${wallets.availableBalance} + ${change.available}`,
      heldBalance: sql`${wallets.heldBalance} + ${change.held}`,
      updatedAt: sql`now()`,
    })
    .where(eq(wallets.id, walletId))
    .returning();
  return updated;
}

/** The sums of the wallet's available and held entries, one row per account that has entries. */
export function sumWalletEntries(db: DatabaseExecutor, walletId: string) {
  return db
    .select({ account: ledgerEntries.account, total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.walletId, walletId), inArray(ledgerEntries.account, ['available', 'held'])))
    .groupBy(ledgerEntries.account);
}

/** A page of the wallet's movements, newest first, each with its cursor position (`limit` rows at most). */
export function listWalletTransactionRows(
  db: DatabaseExecutor,
  ref: ApiKeyOwner,
  { after, limit }: { after: PagePosition | undefined; limit: number },
) {
  return db
    .select({
      id: ledgerTransactions.id,
      kind: ledgerTransactions.kind,
      amount: ledgerTransactions.amount,
      reference: ledgerTransactions.reference,
      description: ledgerTransactions.description,
      availableAfter: ledgerTransactions.availableAfter,
      heldAfter: ledgerTransactions.heldAfter,
      createdAt: ledgerTransactions.createdAt,
      position: cursorTimeOf(ledgerTransactions.createdAt),
    })
    .from(ledgerTransactions)
    .innerJoin(wallets, eq(wallets.id, ledgerTransactions.walletId))
    .where(
      and(
        eq(wallets.organizationId, ref.organizationId),
        eq(wallets.environment, ref.environment),
        after === undefined ? undefined : afterPosition(ledgerTransactions, after),
      ),
    )
    .orderBy(desc(ledgerTransactions.createdAt), desc(ledgerTransactions.id))
    .limit(limit);
}

/** Sets the wallet's low-balance threshold (null: none) and re-arms its alert; the updated row. */
export async function updateLowBalanceThreshold(
  db: DatabaseExecutor,
  walletId: string,
  threshold: number | null,
): Promise<Wallet | undefined> {
  const [updated] = await db
    .update(wallets)
    .set({ lowBalanceThreshold: threshold, lowBalanceAlertedAt: null, updatedAt: sql`now()` })
    .where(eq(wallets.id, walletId))
    .returning();
  return updated;
}

/** Records that the wallet's low-balance alert was sent at `at`: no other until it is re-armed. */
export async function markLowBalanceAlerted(
  db: DatabaseExecutor,
  walletId: string,
  at: Date,
): Promise<Wallet | undefined> {
  const [updated] = await db
    .update(wallets)
    .set({ lowBalanceAlertedAt: at })
    .where(eq(wallets.id, walletId))
    .returning();
  return updated;
}

/** Re-arms the wallet's low-balance alert: the next crossing alerts again. */
export async function clearLowBalanceAlert(db: DatabaseExecutor, walletId: string): Promise<Wallet | undefined> {
  const [updated] = await db
    .update(wallets)
    .set({ lowBalanceAlertedAt: null })
    .where(eq(wallets.id, walletId))
    .returning();
  return updated;
}
