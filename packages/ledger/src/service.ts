import {
  type ApiKeyOwner,
  type Database,
  type DatabaseExecutor,
  databaseErrorOf,
  type LedgerAccount,
  type LedgerTransactionKind,
  type Transaction,
  type UnitOfWork,
  unitOfWorkIn,
  type Wallet,
} from '@platform/db';
import { HoldAlreadyResolvedError, InsufficientFundsError, MovementRaceError } from './errors.js';
import { addLowBalanceAlert, rearmAfterTopUp } from './low-balance.js';
import { addHoldWrite, addHoldWriteOrRefuse, addResolutionWrite } from './movements-repository.js';
import {
  addToWalletBalances,
  findHoldResolutions,
  findLedgerTransaction,
  findWallet,
  findWalletBalances,
  insertLedgerEntries,
  insertLedgerTransaction,
  insertWalletIfMissing,
  lockWalletRow,
  sumWalletEntries,
  updateLowBalanceThreshold,
} from './repository.js';

// The wallet ledger. Every movement is one ledger transaction with balanced entries; the wallet row's
// balances change in the same database transaction, so the cached balances always equal the ledger. A movement
// commits or rolls back with the change that caused it (a session row, a payment's success): a hold, a capture or a
// release is added to that change's unit of work (`addHold`, `addCapture`, `addRelease`:
// docs/decisions.md#a-unit-of-work), and a movement of a change written with drizzle runs in the caller's
// transaction (`topUpWallet`, and `placeHold`, `captureHold`, `releaseHold`, each a unit of its own in it).

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

/** What a new wallet starts with: `testCredit` whole KES on a test wallet (docs/decisions.md#test-credit). */
export interface NewWalletOptions {
  /** Whole KES a test wallet created now starts with (TEST_WALLET_CREDIT); 0 or absent: none. Live wallets: none. */
  testCredit?: number | undefined;
}

/** The reference of a test wallet's starting credit: one per organization, whoever creates the wallet. */
export function testCreditReference(organizationId: string): string {
  return `test_credit:${organizationId}`;
}

/**
 * The wallet of an organization in an environment, created on first use: empty, or for a test wallet with
 * `testCredit`, recorded as a top-up in the statement that creates it.
 */
export async function ensureWallet(
  db: DatabaseExecutor,
  ref: ApiKeyOwner,
  { testCredit }: NewWalletOptions = {},
): Promise<Wallet> {
  const credit =
    ref.environment === 'test' && testCredit !== undefined && testCredit > 0
      ? { amount: testCredit, reference: testCreditReference(ref.organizationId), description: 'Test credit' }
      : undefined;
  if (credit !== undefined) assertAmount(credit.amount);
  await insertWalletIfMissing(db, ref, credit);
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
 * Adds a hold to the unit of work: money from available to held, sent at the unit's commit as its lock-taking write
 * (docs/decisions.md#a-unit-of-work). Once per reference. When the available balance is too low the unit fails with
 * `whenShort(available)` (default: InsufficientFundsError), writing nothing. A hold that takes the available balance
 * below the wallet's low-balance threshold alerts, once (low-balance.ts), in one more statement of the unit.
 *
 * In a unit that may commit without a transaction (`work.transactional` false) the hold refuses instead of
 * answering: when the wallet is missing or short, or the hold would alert, the unit's one statement writes nothing
 * and the unit runs again in a transaction, where the hold answers as above
 * (docs/decisions.md#a-create-in-one-statement). The balance check is the UPDATE's own, on the latest row, so
 * concurrent holds never overdraw (a CHECK keeps both balances at 0 or more too).
 */
export function addHold(
  work: UnitOfWork,
  ref: ApiKeyOwner,
  movement: Movement,
  { whenShort }: { whenShort?: (available: number) => Error } = {},
): void {
  holdIn(work, ref, movement, whenShort ?? ((available) => new InsufficientFundsError(available, movement.amount)));
}

function holdIn(
  work: UnitOfWork,
  ref: ApiKeyOwner,
  movement: Movement,
  whenShort: (available: number) => Error,
  done?: (result: MovementResult) => void,
): void {
  assertAmount(movement.amount);
  const hold = { amount: movement.amount, reference: movement.reference, description: movement.description ?? null };
  const failed = movementRace(movement.reference);
  if (!work.transactional) {
    addHoldWriteOrRefuse(work, ref, hold, failed);
    return;
  }
  const now = movement.now ?? new Date();
  addHoldWrite(
    work,
    ref,
    { ...hold, now },
    {
      failed,
      settle: async (outcome, transaction) => {
        const { seen, written } = outcome;
        if (written !== undefined) {
          if (outcome.alerted)
            addLowBalanceAlert(work, ref, { after: written.wallet, reference: movement.reference, now });
          done?.({ applied: true, ...written });
          return;
        }
        if (outcome.existingId !== undefined) {
          const wallet = seen ?? (await ensureWallet(await transaction(), ref));
          done?.({ applied: false, transactionId: outcome.existingId, wallet });
          return;
        }
        // The snapshot may show enough that a hold committed while the UPDATE waited took: the refusal names what is
        // left. No wallet yet is a wallet with nothing available.
        const wallet =
          seen !== undefined && seen.availableBalance >= movement.amount
            ? await findWallet(await transaction(), ref)
            : seen;
        throw whenShort(wallet?.availableBalance ?? 0);
      },
    },
  );
}

/** A hold on its own in the caller's transaction, sent before this returns (placeHold's unit of work). */
export async function placeHold(tx: Transaction, ref: ApiKeyOwner, movement: Movement): Promise<MovementResult> {
  let result: MovementResult | undefined;
  await unitOfWorkIn(tx, async (work) => {
    holdIn(
      work,
      ref,
      movement,
      (available) => new InsufficientFundsError(available, movement.amount),
      (held) => {
        result = held;
      },
    );
  });
  if (result === undefined) throw new Error('The hold did not answer');
  return result;
}

/**
 * A movement of the same reference committed while the unit's statement ran meets the ledger's unique indexes
 * (movements-repository.ts), which fail the unit: that is a movement already made, never a second one.
 */
function movementRace(reference: string): (error: unknown) => unknown {
  return (error) => {
    const failure = databaseErrorOf(error);
    if (failure?.code === '23505' && failure.constraint !== undefined && movementIndexes.has(failure.constraint)) {
      return new MovementRaceError(reference);
    }
    return undefined;
  };
}

const movementIndexes = new Set([
  'ledger_transactions_kind_reference_unique',
  'ledger_transactions_one_resolution_per_hold',
]);

function resolutionIn(
  work: UnitOfWork,
  ref: ApiKeyOwner,
  { kind, reference, description }: { kind: 'capture' | 'release'; reference: string; description: string | undefined },
  done?: (result: MovementResult) => void,
): void {
  addResolutionWrite(
    work,
    ref,
    { kind, reference, description: description ?? null },
    {
      failed: movementRace(reference),
      settle: async (outcome, transaction) => {
        if (!outcome.holdFound) throw new Error(`No hold exists for ${reference}`);
        if (outcome.seen === undefined) throw new Error(`The wallet of the hold ${reference} does not exist`);
        if (outcome.written !== undefined) {
          done?.({ applied: true, ...outcome.written });
          return;
        }
        // Not written: resolved already, maybe by a transaction that committed while the UPDATE waited for the wallet
        // (its WHERE then found the held money gone), which only a statement after this one sees.
        const resolutions =
          outcome.resolutions.length > 0
            ? outcome.resolutions
            : await findHoldResolutions(await transaction(), reference);
        const same = resolutions.find((row) => row.kind === kind);
        if (same) {
          done?.({ applied: false, transactionId: same.id, wallet: outcome.seen });
          return;
        }
        if (resolutions.length > 0) throw new HoldAlreadyResolvedError(reference);
        throw new Error(`The ${kind} of ${reference} was refused without an earlier resolution`);
      },
    },
  );
}

/**
 * Adds the capture of a hold to the unit of work: its money taken for good (the service was delivered), as the
 * unit's lock-taking write. Once per hold; never after a release (HoldAlreadyResolvedError).
 */
export function addCapture(work: UnitOfWork, ref: ApiKeyOwner, reference: string, description?: string): void {
  resolutionIn(work, ref, { kind: 'capture', reference, description });
}

/**
 * Adds the release of a hold to the unit of work: its money back to the available balance, as the unit's
 * lock-taking write. Once per hold; never after a capture (HoldAlreadyResolvedError).
 */
export function addRelease(work: UnitOfWork, ref: ApiKeyOwner, reference: string, description?: string): void {
  resolutionIn(work, ref, { kind: 'release', reference, description });
}

async function resolvedIn(
  tx: Transaction,
  ref: ApiKeyOwner,
  resolution: { kind: 'capture' | 'release'; reference: string; description: string | undefined },
): Promise<MovementResult> {
  let result: MovementResult | undefined;
  await unitOfWorkIn(tx, async (work) => {
    resolutionIn(work, ref, resolution, (resolved) => {
      result = resolved;
    });
  });
  if (result === undefined) throw new Error(`The ${resolution.kind} of ${resolution.reference} did not answer`);
  return result;
}

/** A capture on its own in the caller's transaction (addCapture's unit of work), sent before this returns. */
export function captureHold(tx: Transaction, ref: ApiKeyOwner, reference: string, description?: string) {
  return resolvedIn(tx, ref, { kind: 'capture', reference, description });
}

/** A release on its own in the caller's transaction (addRelease's unit of work), sent before this returns. */
export function releaseHold(tx: Transaction, ref: ApiKeyOwner, reference: string, description?: string) {
  return resolvedIn(tx, ref, { kind: 'release', reference, description });
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
export async function walletBalances(
  db: Database,
  ref: ApiKeyOwner,
  options: NewWalletOptions = {},
): Promise<WalletBalances> {
  const existing = await findWalletBalances(db, ref);
  const wallet = existing ?? (await ensureWallet(db, ref, options));
  return { available: wallet.availableBalance, held: wallet.heldBalance };
}

/** The balances as the ledger says they are (the sum of the wallet's entries), for checks and audits. */
export async function ledgerBalances(db: DatabaseExecutor, walletId: string): Promise<WalletBalances> {
  const rows = await sumWalletEntries(db, walletId);
  const total = (account: LedgerAccount) => Number(rows.find((row) => row.account === account)?.total ?? 0);
  return { available: total('available'), held: total('held') };
}
