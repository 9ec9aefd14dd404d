import type {
  ApiKeyOwner,
  DatabaseExecutor,
  LedgerAccount,
  LedgerTransactionKind,
  Transaction,
  Wallet,
} from '@platform/db';
import { ledgerEntries, ledgerTransactions, wallets } from '@platform/db/schema';
import { and, eq, inArray, sql } from 'drizzle-orm';

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
  },
): Promise<{ id: string } | undefined> {
  const [transaction] = await db.insert(ledgerTransactions).values(values).returning({ id: ledgerTransactions.id });
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
