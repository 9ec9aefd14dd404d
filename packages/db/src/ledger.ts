import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DatabaseExecutor, Transaction } from './client.js';
import type { ApiKeyEnvironment, LedgerAccount, LedgerTransactionKind } from './enums.js';
import { ledgerEntries, ledgerTransactions, type Wallet, wallets } from './schema/index.js';

// The wallet ledger. Every movement is one ledger transaction with balanced entries; the wallet row's
// balances change in the same database transaction, so the cached balances always equal the ledger.
// Each function takes the caller's transaction: the movement commits or rolls back with the change that
// caused it (a session row, a payment's success).

export interface WalletRef {
  organizationId: string;
  environment: ApiKeyEnvironment;
}

export interface Movement {
  /** Whole KES, greater than zero. */
  amount: number;
  /** What caused it (`verification_session:<id>`, `payment:<reference>`); one movement of a kind per reference. */
  reference: string;
  description?: string;
}

export interface MovementResult {
  /** False when a movement of this kind already exists for the reference: nothing changed. */
  applied: boolean;
  transactionId: string;
  wallet: Wallet;
}

/** There is not enough available balance for a hold; nothing was written. */
export class InsufficientFundsError extends Error {
  constructor(
    readonly available: number,
    readonly required: number,
  ) {
    super(`Wallet balance ${available} KES is below the ${required} KES required`);
    this.name = 'InsufficientFundsError';
  }
}

/** A hold was asked to be captured or released after it had already been resolved the other way. */
export class HoldAlreadyResolvedError extends Error {
  constructor(readonly reference: string) {
    super(`The hold for ${reference} has already been resolved`);
    this.name = 'HoldAlreadyResolvedError';
  }
}

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new RangeError(`A ledger amount must be a whole number of KES above 0 (got ${amount})`);
  }
}

/** The wallet of an organization in an environment, created empty on first use. */
export async function ensureWallet(db: DatabaseExecutor, ref: WalletRef): Promise<Wallet> {
  await db
    .insert(wallets)
    .values({ organizationId: ref.organizationId, environment: ref.environment })
    .onConflictDoNothing({ target: [wallets.organizationId, wallets.environment] });
  const [wallet] = await db
    .select()
    .from(wallets)
    .where(and(eq(wallets.organizationId, ref.organizationId), eq(wallets.environment, ref.environment)));
  if (wallet === undefined) throw new Error('The wallet could not be created');
  return wallet;
}

/** Locks the wallet row until the transaction ends, so movements of one wallet happen one at a time. */
async function lockWallet(tx: Transaction, ref: WalletRef): Promise<Wallet> {
  const existing = await ensureWallet(tx, ref);
  const [locked] = await tx.select().from(wallets).where(eq(wallets.id, existing.id)).for('update');
  if (locked === undefined) throw new Error('The wallet disappeared');
  return locked;
}

async function existingTransaction(tx: Transaction, kind: LedgerTransactionKind, reference: string) {
  const [row] = await tx
    .select({ id: ledgerTransactions.id, walletId: ledgerTransactions.walletId })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, kind), eq(ledgerTransactions.reference, reference)));
  return row;
}

async function record(
  tx: Transaction,
  wallet: Wallet,
  kind: LedgerTransactionKind,
  movement: Movement,
  entries: Array<{ account: LedgerAccount; amount: number }>,
  balanceChange: { available: number; held: number },
): Promise<MovementResult> {
  const [transaction] = await tx
    .insert(ledgerTransactions)
    .values({
      walletId: wallet.id,
      kind,
      amount: movement.amount,
      reference: movement.reference,
      description: movement.description ?? null,
    })
    .returning({ id: ledgerTransactions.id });
  if (transaction === undefined) throw new Error('Recording the ledger transaction returned no row');
  await tx
    .insert(ledgerEntries)
    .values(entries.map((entry) => ({ transactionId: transaction.id, walletId: wallet.id, ...entry })));
  const [updated] = await tx
    .update(wallets)
    .set({
      availableBalance: sql`${wallets.availableBalance} + ${balanceChange.available}`,
      heldBalance: sql`${wallets.heldBalance} + ${balanceChange.held}`,
      updatedAt: sql`now()`,
    })
    .where(eq(wallets.id, wallet.id))
    .returning();
  if (updated === undefined) throw new Error('Updating the wallet balances returned no row');
  return { applied: true, transactionId: transaction.id, wallet: updated };
}

/** Adds money to the available balance (a top-up). Once per reference. */
export async function topUpWallet(tx: Transaction, ref: WalletRef, movement: Movement): Promise<MovementResult> {
  assertAmount(movement.amount);
  const wallet = await lockWallet(tx, ref);
  const done = await existingTransaction(tx, 'top_up', movement.reference);
  if (done) return { applied: false, transactionId: done.id, wallet };
  return record(
    tx,
    wallet,
    'top_up',
    movement,
    [
      { account: 'available', amount: movement.amount },
      { account: 'funding', amount: -movement.amount },
    ],
    { available: movement.amount, held: 0 },
  );
}

/**
 * Moves money from available to held. Throws InsufficientFundsError when the available balance is too
 * low (the caller's transaction then rolls back, writing nothing). Once per reference.
 */
export async function placeHold(tx: Transaction, ref: WalletRef, movement: Movement): Promise<MovementResult> {
  assertAmount(movement.amount);
  const wallet = await lockWallet(tx, ref);
  const done = await existingTransaction(tx, 'hold', movement.reference);
  if (done) return { applied: false, transactionId: done.id, wallet };
  if (wallet.availableBalance < movement.amount) {
    throw new InsufficientFundsError(wallet.availableBalance, movement.amount);
  }
  return record(
    tx,
    wallet,
    'hold',
    movement,
    [
      { account: 'available', amount: -movement.amount },
      { account: 'held', amount: movement.amount },
    ],
    { available: -movement.amount, held: movement.amount },
  );
}

async function resolveHold(
  tx: Transaction,
  ref: WalletRef,
  reference: string,
  kind: 'capture' | 'release',
  description?: string,
): Promise<MovementResult> {
  const wallet = await lockWallet(tx, ref);
  const [hold] = await tx
    .select()
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, 'hold'), eq(ledgerTransactions.reference, reference)));
  if (hold === undefined) throw new Error(`No hold exists for ${reference}`);
  const resolutions = await tx
    .select({ id: ledgerTransactions.id, kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(and(inArray(ledgerTransactions.kind, ['capture', 'release']), eq(ledgerTransactions.reference, reference)));
  const same = resolutions.find((row) => row.kind === kind);
  if (same) return { applied: false, transactionId: same.id, wallet };
  if (resolutions.length > 0) throw new HoldAlreadyResolvedError(reference);

  const movement = { amount: hold.amount, reference, description };
  return kind === 'capture'
    ? record(
        tx,
        wallet,
        'capture',
        movement,
        [
          { account: 'held', amount: -hold.amount },
          { account: 'revenue', amount: hold.amount },
        ],
        { available: 0, held: -hold.amount },
      )
    : record(
        tx,
        wallet,
        'release',
        movement,
        [
          { account: 'held', amount: -hold.amount },
          { account: 'available', amount: hold.amount },
        ],
        { available: hold.amount, held: -hold.amount },
      );
}

/** Takes the held money for good (the service was delivered). Once per hold; never after a release. */
export function captureHold(tx: Transaction, ref: WalletRef, reference: string, description?: string) {
  return resolveHold(tx, ref, reference, 'capture', description);
}

/** Gives the held money back to the available balance. Once per hold; never after a capture. */
export function releaseHold(tx: Transaction, ref: WalletRef, reference: string, description?: string) {
  return resolveHold(tx, ref, reference, 'release', description);
}

export interface WalletBalances {
  available: number;
  held: number;
}

/** The balances as the ledger says they are (the sum of the wallet's entries), for checks and audits. */
export async function ledgerBalances(db: DatabaseExecutor, walletId: string): Promise<WalletBalances> {
  const rows = await db
    .select({ account: ledgerEntries.account, total: sql<string>`coalesce(sum(${ledgerEntries.amount}), 0)` })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.walletId, walletId), inArray(ledgerEntries.account, ['available', 'held'])))
    .groupBy(ledgerEntries.account);
  const total = (account: LedgerAccount) => Number(rows.find((row) => row.account === account)?.total ?? 0);
  return { available: total('available'), held: total('held') };
}
