import type {
  ApiKeyOwner,
  DatabaseExecutor,
  LedgerAccount,
  LedgerTransactionKind,
  Transaction,
  Wallet,
} from '@platform/db';
import { HoldAlreadyResolvedError, InsufficientFundsError } from './errors.js';
import { alertIfBalanceLow, rearmAfterTopUp } from './low-balance.js';
import {
  addToWalletBalances,
  findHold,
  findHoldResolutions,
  findLedgerTransaction,
  findWallet,
  insertLedgerEntries,
  insertLedgerTransaction,
  insertWalletIfMissing,
  lockWalletRow,
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

/**
 * Moves money from available to held. Throws InsufficientFundsError when the available balance is too
 * low (the caller's transaction then rolls back, writing nothing). Once per reference. A hold that takes the
 * available balance below the wallet's low-balance threshold alerts, once (low-balance.ts).
 */
export async function placeHold(tx: Transaction, ref: ApiKeyOwner, movement: Movement): Promise<MovementResult> {
  assertAmount(movement.amount);
  const wallet = await lockWallet(tx, ref);
  const done = await findLedgerTransaction(tx, 'hold', movement.reference);
  if (done) return { applied: false, transactionId: done.id, wallet };
  if (wallet.availableBalance < movement.amount) {
    throw new InsufficientFundsError(wallet.availableBalance, movement.amount);
  }
  const result = await record(
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
  const after = await alertIfBalanceLow(tx, ref, {
    before: wallet,
    after: result.wallet,
    reference: movement.reference,
    now: movement.now ?? new Date(),
  });
  return { ...result, wallet: after };
}

async function resolveHold(
  tx: Transaction,
  ref: ApiKeyOwner,
  reference: string,
  kind: 'capture' | 'release',
  description?: string,
): Promise<MovementResult> {
  const wallet = await lockWallet(tx, ref);
  const hold = await findHold(tx, reference);
  if (hold === undefined) throw new Error(`No hold exists for ${reference}`);
  const resolutions = await findHoldResolutions(tx, reference);
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
export function captureHold(tx: Transaction, ref: ApiKeyOwner, reference: string, description?: string) {
  return resolveHold(tx, ref, reference, 'capture', description);
}

/** Gives the held money back to the available balance. Once per hold; never after a capture. */
export function releaseHold(tx: Transaction, ref: ApiKeyOwner, reference: string, description?: string) {
  return resolveHold(tx, ref, reference, 'release', description);
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

/** The balances as the ledger says they are (the sum of the wallet's entries), for checks and audits. */
export async function ledgerBalances(db: DatabaseExecutor, walletId: string): Promise<WalletBalances> {
  const rows = await sumWalletEntries(db, walletId);
  const total = (account: LedgerAccount) => Number(rows.find((row) => row.account === account)?.total ?? 0);
  return { available: total('available'), held: total('held') };
}
