import {
  type ApiKeyOwner,
  type Database,
  type DatabaseExecutor,
  databaseErrorOf,
  type LedgerAccount,
  type LedgerTransactionKind,
  type RidingStatement,
  type Transaction,
  type Wallet,
} from '@platform/db';
import { HoldAlreadyResolvedError, InsufficientFundsError, MovementRaceError } from './errors.js';
import { rearmAfterTopUp, sendLowBalanceAlert } from './low-balance.js';
import {
  addToWalletBalances,
  findHoldResolutions,
  findLedgerTransaction,
  findWallet,
  findWalletBalances,
  type HoldStatementParts,
  insertLedgerEntries,
  insertLedgerTransaction,
  insertWalletIfMissing,
  lockWalletRow,
  placeHoldOrDeferStatement,
  placeHoldStatement,
  resolveHoldStatement,
  sumWalletEntries,
  updateLowBalanceThreshold,
} from './repository.js';

// The wallet ledger. Every movement is one ledger transaction with balanced entries; the wallet row's
// balances change in the same database transaction, so the cached balances always equal the ledger.
// Each function takes the caller's transaction: the movement commits or rolls back with the change that
// caused it (a session row, a payment's success).

export interface Movement {
  /** Whole KES, greater than zero. */
  amount: number;
  /** What caused it (`verification_session:<id>`, `payment:<reference>`); one movement of a kind per reference. */
  reference: string;
  description?: string;
  /** When it happens, for what it causes (a low-balance alert's time); default: the system clock. */
  now?: Date;
}

export interface MovementResult {
  /** False when a movement of this kind already exists for the reference: nothing changed. */
  applied: boolean;
  transactionId: string;
  wallet: Wallet;
}

function assertAmount(amount: number): void {
  if (!Number.isSafeInteger(amount) || amount <= 0) {
    throw new RangeError(`A ledger amount must be a whole number of KES above 0 (got ${amount})`);
  }
}

/** The wallet of an organization in an environment, created empty on first use. */
export async function ensureWallet(db: DatabaseExecutor, ref: ApiKeyOwner): Promise<Wallet> {
  await insertWalletIfMissing(db, ref);
  const wallet = await findWallet(db, ref);
  if (wallet === undefined) throw new Error('The wallet could not be created');
  return wallet;
}

/** Locks the wallet row until the transaction ends, so movements of one wallet happen one at a time. */
async function lockWallet(tx: Transaction, ref: ApiKeyOwner): Promise<Wallet> {
  const existing = await ensureWallet(tx, ref);
  const locked = await lockWalletRow(tx, existing.id);
  if (locked === undefined) throw new Error('The wallet disappeared');
  return locked;
}

async function record(
  tx: Transaction,
  wallet: Wallet,
  kind: LedgerTransactionKind,
  movement: Movement,
  entries: Array<{ account: LedgerAccount; amount: number }>,
  balanceChange: { available: number; held: number },
): Promise<MovementResult> {
  // `wallet` is locked: nothing else moves its money before this transaction ends, so these are exact.
  const availableAfter = wallet.availableBalance + balanceChange.available;
  const heldAfter = wallet.heldBalance + balanceChange.held;
  const transaction = await insertLedgerTransaction(tx, {
    walletId: wallet.id,
    kind,
    amount: movement.amount,
    reference: movement.reference,
    description: movement.description ?? null,
    availableAfter,
    heldAfter,
  });
  if (transaction === undefined) throw new Error('Recording the ledger transaction returned no row');
  await insertLedgerEntries(
    tx,
    entries.map((entry) => ({ transactionId: transaction.id, walletId: wallet.id, ...entry })),
  );
  const updated = await addToWalletBalances(tx, wallet.id, balanceChange);
  if (updated === undefined) throw new Error('Updating the wallet balances returned no row');
  if (updated.availableBalance !== availableAfter || updated.heldBalance !== heldAfter) {
    throw new Error(`The balances of wallet ${wallet.id} moved while it was locked`);
  }
  return { applied: true, transactionId: transaction.id, wallet: updated };
}

/** Adds money to the available balance (a top-up). Once per reference. */
export async function topUpWallet(tx: Transaction, ref: ApiKeyOwner, movement: Movement): Promise<MovementResult> {
  assertAmount(movement.amount);
  const wallet = await lockWallet(tx, ref);
  const done = await findLedgerTransaction(tx, 'top_up', movement.reference);
  if (done) return { applied: false, transactionId: done.id, wallet };
  const result = await record(
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
  return { ...result, wallet: await rearmAfterTopUp(tx, result.wallet) };
}

export interface MovementOptions {
  /**
   * Statements to send inside the movement's own (riders: docs/decisions.md#statements-per-request), so they commit
   * with it at no cost of a round trip: the writes of the change that causes it, the stored idempotent answer.
   */
  alongside?: readonly RidingStatement[];
}

/**
 * Moves money from available to held. Throws InsufficientFundsError when the available balance is too
 * low (the caller's transaction then rolls back, writing nothing). Once per reference. A hold that takes the
 * available balance below the wallet's low-balance threshold alerts, once (low-balance.ts).
 *
 * One statement moves the balances (which locks the wallet) and writes the hold and its entries, with the riders in
 * `options.alongside`; send it last before COMMIT, as the wallet stays locked until then. The balance check is the
 * UPDATE's own, on the latest row, so concurrent holds never overdraw (a CHECK keeps both balances at 0 or more too).
 * Only a hold that alerts sends a second statement (the alert's notifications and callback).
 */
export async function placeHold(
  tx: Transaction,
  ref: ApiKeyOwner,
  movement: Movement,
  options: MovementOptions = {},
): Promise<MovementResult> {
  assertAmount(movement.amount);
  const now = movement.now ?? new Date();
  const outcome = await onlyOnce(movement.reference, () =>
    placeHoldStatement(
      tx,
      ref,
      { amount: movement.amount, reference: movement.reference, description: movement.description ?? null, now },
      options.alongside ?? [],
    ),
  );
  const { seen, written } = outcome;
  if (written !== undefined) {
    if (outcome.alerted)
      await sendLowBalanceAlert(tx, ref, { after: written.wallet, reference: movement.reference, now });
    return { applied: true, ...written };
  }
  if (outcome.existingId !== undefined) {
    return { applied: false, transactionId: outcome.existingId, wallet: seen ?? (await ensureWallet(tx, ref)) };
  }
  // The snapshot may show enough that a hold committed while the UPDATE waited took: the 402 names what is left.
  const wallet = seen !== undefined && seen.availableBalance >= movement.amount ? await findWallet(tx, ref) : seen;
  // No wallet yet is a wallet with nothing available.
  throw new InsufficientFundsError(wallet?.availableBalance ?? 0, movement.amount);
}

/**
 * Places a hold in one statement sent outside a transaction, with riders, or defers to the transactional path
 * (`placeHold` in the caller's transaction): the statement then fails with an error `isDeferredToTransaction` knows
 * and writes nothing (docs/decisions.md#a-create-in-one-statement; when it defers: `placeHoldOrDeferStatement`).
 */
export async function placeHoldOrDefer(
  db: DatabaseExecutor,
  ref: ApiKeyOwner,
  movement: { amount: number; reference: string; description?: string },
  statement: HoldStatementParts,
): Promise<{ transactionId: string; walletId: string }> {
  assertAmount(movement.amount);
  return onlyOnce(movement.reference, () =>
    placeHoldOrDeferStatement(
      db,
      ref,
      { amount: movement.amount, reference: movement.reference, description: movement.description ?? null },
      statement,
    ),
  );
}

/**
 * Runs a movement statement; a movement of the same reference committed while it ran meets the ledger's unique
 * indexes (repository.ts), which abort the caller's transaction: that is a movement already made, never a second one.
 */
async function onlyOnce<Outcome>(reference: string, statement: () => Promise<Outcome>): Promise<Outcome> {
  try {
    return await statement();
  } catch (error) {
    const failure = databaseErrorOf(error);
    if (failure?.code === '23505' && failure.constraint !== undefined && movementIndexes.has(failure.constraint)) {
      throw new MovementRaceError(reference);
    }
    throw error;
  }
}

const movementIndexes = new Set([
  'ledger_transactions_kind_reference_unique',
  'ledger_transactions_one_resolution_per_hold',
]);

async function resolveHold(
  tx: Transaction,
  ref: ApiKeyOwner,
  reference: string,
  kind: 'capture' | 'release',
  description: string | undefined,
  options: MovementOptions,
): Promise<MovementResult> {
  const outcome = await onlyOnce(reference, () =>
    resolveHoldStatement(tx, ref, { kind, reference, description: description ?? null }, options.alongside ?? []),
  );
  if (!outcome.holdFound) throw new Error(`No hold exists for ${reference}`);
  if (outcome.seen === undefined) throw new Error(`The wallet of the hold ${reference} does not exist`);
  if (outcome.written !== undefined) return { applied: true, ...outcome.written };
  // Not written: resolved already, maybe by a transaction that committed while the UPDATE waited for the wallet (its
  // WHERE then found the held money gone), which only a statement after this one sees.
  const resolutions = outcome.resolutions.length > 0 ? outcome.resolutions : await findHoldResolutions(tx, reference);
  const same = resolutions.find((row) => row.kind === kind);
  if (same) return { applied: false, transactionId: same.id, wallet: outcome.seen };
  if (resolutions.length > 0) throw new HoldAlreadyResolvedError(reference);
  throw new Error(`The ${kind} of ${reference} was refused without an earlier resolution`);
}

/** Takes the held money for good (the service was delivered). Once per hold; never after a release. */
export function captureHold(
  tx: Transaction,
  ref: ApiKeyOwner,
  reference: string,
  description?: string,
  options: MovementOptions = {},
) {
  return resolveHold(tx, ref, reference, 'capture', description, options);
}

/** Gives the held money back to the available balance. Once per hold; never after a capture. */
export function releaseHold(
  tx: Transaction,
  ref: ApiKeyOwner,
  reference: string,
  description?: string,
  options: MovementOptions = {},
) {
  return resolveHold(tx, ref, reference, 'release', description, options);
}

/**
 * Sets the low-balance threshold of the owner's wallet (whole KES, 0 or more; null: no alerts), creating the wallet
 * when it was never used; throws RangeError for anything else, writing nothing. A new setting re-arms the alert: the
 * next hold that takes the available balance below it alerts (docs/decisions.md#low-balance-alerts). The wallet is
 * locked, so `previous` is the setting this one replaced even when two settings race.
 */
export async function setLowBalanceThreshold(
  tx: Transaction,
  ref: ApiKeyOwner,
  threshold: number | null,
): Promise<{ wallet: Wallet; previous: number | null }> {
  if (threshold !== null && (!Number.isSafeInteger(threshold) || threshold < 0)) {
    throw new RangeError(`A low-balance threshold must be a whole number of KES, 0 or more (got ${threshold})`);
  }
  const locked = await lockWallet(tx, ref);
  const wallet = await updateLowBalanceThreshold(tx, locked.id, threshold);
  if (wallet === undefined) throw new Error('The wallet disappeared while it was locked');
  return { wallet, previous: locked.lowBalanceThreshold };
}

export interface WalletBalances {
  available: number;
  held: number;
}

/**
 * The balances of the wallet, whole KES. A wallet never used is created empty on this first look
 * (docs/decisions.md#wallet-creation-and-credits); one that exists is read by one prepared statement.
 */
export async function walletBalances(db: Database, ref: ApiKeyOwner): Promise<WalletBalances> {
  const existing = await findWalletBalances(db, ref);
  const wallet = existing ?? (await ensureWallet(db, ref));
  return { available: wallet.availableBalance, held: wallet.heldBalance };
}

/** The balances as the ledger says they are (the sum of the wallet's entries), for checks and audits. */
export async function ledgerBalances(db: DatabaseExecutor, walletId: string): Promise<WalletBalances> {
  const rows = await sumWalletEntries(db, walletId);
  const total = (account: LedgerAccount) => Number(rows.find((row) => row.account === account)?.total ?? 0);
  return { available: total('available'), held: total('held') };
}
