import {
  type ApiKeyOwner,
  apiTimeOf,
  type Database,
  type DatabaseExecutor,
  deferToTransaction,
  type LedgerAccount,
  type LedgerTransaction,
  type LedgerTransactionKind,
  preparedPerDatabase,
  prepareWithRowsMapper,
  queryRows,
  type RidingStatement,
  reportRiders,
  riderCounts,
  riderCtes,
  riderReference,
  type Transaction,
  tableRowOf,
  type Wallet,
} from '@platform/db';
import { ledgerEntries, ledgerTransactions, wallets } from '@platform/db/schema';
import { cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';

// Every statement of the wallet ledger. The functions take the executor first, so they run in the caller's
// transaction; the statement's page, prepared per database, takes the database itself.

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

// Read on every GET /v1/wallet: prepared once per database, so a wallet that exists answers in one statement without
// a parse of its own (docs/decisions.md#polled-reads-are-prepared-statements).
const balancesByOwner = preparedPerDatabase((db) =>
  db
    .select({ availableBalance: wallets.availableBalance, heldBalance: wallets.heldBalance })
    .from(wallets)
    .where(
      and(
        eq(wallets.organizationId, sql.placeholder('organizationId')),
        eq(wallets.environment, sql.placeholder('environment')),
      ),
    )
    .prepare('ledger_wallet_balances'),
);

/** The balances of the wallet, or undefined when there is no wallet yet. Runs on the database, not in a transaction. */
export async function findWalletBalances(
  db: Database,
  ref: ApiKeyOwner,
): Promise<{ availableBalance: number; heldBalance: number } | undefined> {
  const [row] = await balancesByOwner(db).execute({ organizationId: ref.organizationId, environment: ref.environment });
  return row;
}

/**
 * The id of the wallet, as a subquery for another module's statement (null when there is no wallet yet): a statement
 * may name the wallet without locking it, and without a round trip of its own.
 */
export function walletIdQuery(ref: ApiKeyOwner): SQL {
  return sql`(select ${wallets.id} from ${wallets}
    where ${wallets.organizationId} = ${ref.organizationId}::uuid and ${wallets.environment} = ${ref.environment}::text)`;
}

/**
 * The wallet row, locked until the transaction ends. FOR NO KEY UPDATE, the lock every movement takes: movements take
 * turns, while the foreign-key checks of rows naming the wallet (a session inserted in a transaction that holds it
 * next) do not block it, nor it them.
 */
export async function lockWalletRow(tx: Transaction, walletId: string): Promise<Wallet | undefined> {
  const [locked] = await tx.select().from(wallets).where(eq(wallets.id, walletId)).for('no key update');
  return locked;
}

/** The captures and releases recorded for a hold's reference. */
export function findHoldResolutions(db: DatabaseExecutor, reference: string) {
  return db
    .select({ id: ledgerTransactions.id, kind: ledgerTransactions.kind })
    .from(ledgerTransactions)
    .where(and(inArray(ledgerTransactions.kind, ['capture', 'release']), eq(ledgerTransactions.reference, reference)));
}

/** The movement of a kind recorded for a reference, if any. */
export async function findLedgerTransaction(db: DatabaseExecutor, kind: LedgerTransactionKind, reference: string) {
  const [row] = await db
    .select({ id: ledgerTransactions.id, walletId: ledgerTransactions.walletId })
    .from(ledgerTransactions)
    .where(and(eq(ledgerTransactions.kind, kind), eq(ledgerTransactions.reference, reference)));
  return row;
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

/** One movement of a wallet statement, its time already written as the API writes it (ISO, milliseconds). */
export type WalletTransactionRow = Pick<
  LedgerTransaction,
  'id' | 'kind' | 'amount' | 'reference' | 'description' | 'availableAfter' | 'heldAfter'
> & {
  /** The cursor's position of the movement (its time to the microsecond). */
  position: string;
  createdAt: string;
};

// A page of the statement as prepared statements, one without a cursor and one with, built once per database with
// placeholders and read by position, as the payments list is: building the query and mapping 50 rows through
// drizzle on every request cost the service more than the query itself
// (docs/benchmarks.md#the-wallet-statement-get-v1wallettransactions-27-nov). The conditions are the ones the
// query had before, so the same plan serves a page deep in a long statement from the cursor's position on.
const statementPages = preparedPerDatabase((db) => ({
  first: prepareStatementPage(db, false),
  after: prepareStatementPage(db, true),
}));

function prepareStatementPage(db: Database, afterCursor: boolean) {
  const conditions: SQL[] = [
    sql`${wallets.organizationId} = ${sql.placeholder('organizationId')}::uuid`,
    sql`${wallets.environment} = ${sql.placeholder('environment')}::text`,
  ];
  if (afterCursor) {
    conditions.push(
      sql`(${ledgerTransactions.createdAt}, ${ledgerTransactions.id}) < (${sql.placeholder('afterAt')}::timestamptz, ${sql.placeholder('afterId')}::uuid)`,
    );
  }
  return prepareWithRowsMapper(
    db,
    afterCursor ? 'wallet_statement_after' : 'wallet_statement_first',
    db
      .select({
        id: ledgerTransactions.id,
        position: cursorTimeOf(ledgerTransactions.createdAt),
        kind: ledgerTransactions.kind,
        amount: ledgerTransactions.amount,
        reference: ledgerTransactions.reference,
        description: ledgerTransactions.description,
        availableAfter: ledgerTransactions.availableAfter,
        heldAfter: ledgerTransactions.heldAfter,
        createdAt: apiTimeOf(ledgerTransactions.createdAt),
      })
      .from(ledgerTransactions)
      .innerJoin(wallets, eq(wallets.id, ledgerTransactions.walletId))
      .where(and(...conditions))
      .orderBy(desc(ledgerTransactions.createdAt), desc(ledgerTransactions.id))
      .limit(sql.placeholder('limit')),
    (rows) => rows.map(statementRowOf),
  );
}

/**
 * A row of the statement's page (its cells in select order). The balances are bigint, which the driver gives as
 * text (postgres.js) or a number (PGlite).
 */
function statementRowOf(cells: unknown[]): WalletTransactionRow {
  const [id, position, kind, amount, reference, description, availableAfter, heldAfter, createdAt] = cells as [
    string,
    string,
    LedgerTransactionKind,
    string | number,
    string,
    string | null,
    string | number,
    string | number,
    string,
  ];
  return {
    id,
    position,
    kind,
    amount: Number(amount),
    reference,
    description,
    availableAfter: Number(availableAfter),
    heldAfter: Number(heldAfter),
    createdAt,
  };
}

/**
 * A page of the wallet's movements, newest first, each with its cursor position (`limit` rows at most). Runs on the
 * database itself, never in a transaction (a prepared statement per database).
 */
export function listWalletTransactionRows(
  db: Database,
  ref: ApiKeyOwner,
  { after, limit }: { after: PagePosition | undefined; limit: number },
): Promise<WalletTransactionRow[]> {
  const pages = statementPages(db);
  return (after === undefined ? pages.first : pages.after).execute({
    organizationId: ref.organizationId,
    environment: ref.environment,
    afterAt: after?.createdAt,
    afterId: after?.id,
    limit,
  });
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

/** Re-arms the wallet's low-balance alert: the next crossing alerts again. */
export async function clearLowBalanceAlert(db: DatabaseExecutor, walletId: string): Promise<Wallet | undefined> {
  const [updated] = await db
    .update(wallets)
    .set({ lowBalanceAlertedAt: null })
    .where(eq(wallets.id, walletId))
    .returning();
  return updated;
}

// ------------------------------------------------------------------------------- movements in one statement

// A hold, a capture and a release are each one statement (docs/decisions.md#statements-per-request): it moves the
// wallet's cached balances, writes the ledger transaction and its entries, with whatever riders the caller sends
// along. The wallet's UPDATE comes first and is what locks the row, so the wallet is locked for that statement and the
// COMMIT after it. No CTE locks the wallet before the UPDATE: a statement that locks a row and then updates it can
// deadlock with a transaction queued for the same row (PostgreSQL's tuple lock). The UPDATE decides from the row
// itself: its WHERE (enough available; no movement of the reference yet) and its SET are evaluated on the latest
// committed row once any movement ahead of it has committed, so racing holds never overdraw, and the ledger rows are
// written from what it returns. A movement of the same reference committed after the statement's snapshot is not
// seen by the WHERE: the unique indexes refuse the second one (23505) and the whole transaction rolls back, so a
// movement is never written twice (mapped by the service).

/** What a one-statement movement found and did. */
export interface MovementOutcome {
  /** The wallet as the statement's snapshot saw it; undefined when there is no such wallet. */
  seen: Wallet | undefined;
  /** The movement written, with the wallet after it; undefined when nothing was written. */
  written: { transactionId: string; wallet: Wallet } | undefined;
  /** The row the statement returned, for the caller's own columns (riders' counts, the hold's amount...). */
  row: Record<string, unknown> | undefined;
}

const walletOf = (ref: ApiKeyOwner) =>
  sql`${wallets.organizationId} = ${ref.organizationId}::uuid and ${wallets.environment} = ${ref.environment}::text`;

/**
 * The one row a movement statement answers (after its `moved`, `movement` and riders' CTEs): the wallet as the
 * snapshot saw it (`seen`), the movement's id and the wallet after it, the caller's `columns`, the riders' counts.
 */
function movementAnswer(ref: ApiKeyOwner, columns: SQL, riders: readonly RidingStatement[]): SQL {
  return sql`select (select to_jsonb(${wallets}) from ${wallets} where ${walletOf(ref)}) as seen,
      movement.id as transaction_id, to_jsonb(moved) as moved, ${columns}
      ${riderCounts(riders)}
    from (select 1) as one
      left join moved on true
      left join movement on true`;
}

async function runMovement(tx: Transaction, statement: SQL, riders: readonly RidingStatement[]) {
  const [row] = await queryRows(tx, statement);
  reportRiders(riders, row);
  const seen = jsonRow(row?.['seen']);
  const after = jsonRow(row?.['moved']);
  const transactionId = row?.['transaction_id'];
  return {
    seen: seen === undefined ? undefined : tableRowOf(wallets, seen),
    written:
      after === undefined || typeof transactionId !== 'string'
        ? undefined
        : { transactionId, wallet: tableRowOf(wallets, after) },
    row,
  } satisfies MovementOutcome;
}

/** A JSON object column as an object (postgres.js parses json; a driver that does not gives text). */
function jsonRow(value: unknown): Record<string, unknown> | undefined {
  if (value === null || value === undefined) return undefined;
  return (typeof value === 'string' ? JSON.parse(value) : value) as Record<string, unknown>;
}

/**
 * The CTEs that write a hold's ledger transaction (`movement`) and its two entries from the wallet the statement's
 * `moved` CTE updated: nothing when it updated none.
 */
function holdMovementCtes(amount: SQL, hold: { reference: string; description: string | null }): SQL {
  return sql`movement as (
        insert into ${ledgerTransactions}
          (wallet_id, kind, amount, reference, description, available_after, held_after, created_at)
        select id, 'hold', ${amount}, ${hold.reference}::text, ${hold.description}::text,
          available_balance, held_balance, clock_timestamp()
        from moved
        returning id, wallet_id
      ),
      entries as (
        insert into ${ledgerEntries} (transaction_id, wallet_id, account, amount)
        select id, wallet_id, 'available', -${amount} from movement
        union all
        select id, wallet_id, 'held', ${amount} from movement
        returning 1
      )`;
}

/**
 * Places a hold of `amount` on the wallet in one statement, with `riders`: written only when the wallet has `amount`
 * available and no hold of `reference` exists. When the hold takes the available balance from at or above the
 * wallet's low-balance threshold to below it and the alert is armed, the same update records the alert's time
 * (`alerted` in the row): exactly one of any number of racing holds sees the crossing.
 */
export async function placeHoldStatement(
  tx: Transaction,
  ref: ApiKeyOwner,
  hold: { amount: number; reference: string; description: string | null; now: Date },
  riders: readonly RidingStatement[],
): Promise<MovementOutcome & { alerted: boolean; existingId: string | undefined }> {
  const amount = sql`${hold.amount}::bigint`;
  const now = sql`${hold.now.toISOString()}::timestamptz`;
  // In the SET, the columns are the row before the hold; in RETURNING, after it. The alert's time is set only by a
  // crossing, and a crossing leaves the balance below the threshold and the balance plus the hold at or above it.
  const crossingBefore = sql`(low_balance_threshold is not null and low_balance_alerted_at is null
      and available_balance >= low_balance_threshold and available_balance - ${amount} < low_balance_threshold)`;
  const crossedAfter = sql`(low_balance_threshold is not null and low_balance_alerted_at = ${now}
      and available_balance < low_balance_threshold and available_balance + ${amount} >= low_balance_threshold)`;
  const outcome = await runMovement(
    tx,
    sql`with moved as (
        update ${wallets} set
          available_balance = available_balance - ${amount},
          held_balance = held_balance + ${amount},
          updated_at = now(),
          low_balance_alerted_at = case when ${crossingBefore} then ${now} else low_balance_alerted_at end
        where ${walletOf(ref)} and available_balance >= ${amount}
          and not exists (select 1 from ${ledgerTransactions} where kind = 'hold' and reference = ${hold.reference}::text)
        returning ${wallets}.*, ${crossedAfter} as alerted
      ),
      ${holdMovementCtes(amount, hold)}${riderCtes(riders)}
    ${movementAnswer(
      ref,
      sql`coalesce(moved.alerted, false) as alerted,
        (select id from ${ledgerTransactions} where kind = 'hold' and reference = ${hold.reference}::text) as existing_id`,
      riders,
    )}`,
    riders,
  );
  const existingId = outcome.row?.['existing_id'];
  return {
    ...outcome,
    alerted: outcome.row?.['alerted'] === true,
    existingId: typeof existingId === 'string' ? existingId : undefined,
  };
}

/** The caller's parts of a hold statement sent outside a transaction (`placeHoldOrDeferStatement`). */
export interface HoldStatementParts {
  leading: SQL;
  onlyIf: SQL;
  riders: readonly RidingStatement[];
  required: readonly number[];
}

/**
 * Places a hold of `amount` with `riders` in one statement meant to be sent outside a transaction
 * (docs/decisions.md#a-create-in-one-statement): it either holds, writes every rider and commits by itself, or
 * defers to the transactional path (`defer_to_transaction`, so it fails and writes nothing). It defers when the
 * wallet is missing or has too little available, when the hold would cross an armed low-balance threshold (the alert
 * is written by the transactional path), when `onlyIf` (a further condition of the caller's, such as the price it
 * holds still being in force) does not hold, when a hold of `reference` exists, and when a rider at one of the
 * `required` indexes wrote no row. `leading`: CTEs of the caller's (each followed by a comma) that `onlyIf` and the
 * riders may read. Riders may read `moved` (the wallet after the hold).
 */
export async function placeHoldOrDeferStatement(
  db: DatabaseExecutor,
  ref: ApiKeyOwner,
  hold: { amount: number; reference: string; description: string | null },
  statement: HoldStatementParts,
): Promise<{ transactionId: string; walletId: string }> {
  const amount = sql`${hold.amount}::bigint`;
  const { riders } = statement;
  const crossing = sql`(low_balance_threshold is not null and low_balance_alerted_at is null
      and available_balance >= low_balance_threshold and available_balance - ${amount} < low_balance_threshold)`;
  const unstored = statement.required.map((index) => sql`(select count(*) from ${riderReference(index)}) = 0`);
  const [row] = await queryRows(
    db,
    sql`with ${statement.leading} moved as (
        update ${wallets} set
          available_balance = available_balance - ${amount},
          held_balance = held_balance + ${amount},
          updated_at = now()
        where ${walletOf(ref)} and available_balance >= ${amount} and not ${crossing} and ${statement.onlyIf}
          and not exists (select 1 from ${ledgerTransactions} where kind = 'hold' and reference = ${hold.reference}::text)
        returning id, available_balance, held_balance
      ),
      ${holdMovementCtes(amount, hold)}${riderCtes(riders)}
    select movement.id as transaction_id, movement.wallet_id,
      case when movement.id is null then ${deferToTransaction('hold')}
        ${unstored.length === 0 ? sql`` : sql`when ${sql.join(unstored, sql` or `)} then ${deferToTransaction('rider')}`}
        else true end as held
      ${riderCounts(riders)}
    from (select 1) as one left join movement on true`,
  );
  reportRiders(riders, row);
  const transactionId = row?.['transaction_id'];
  const walletId = row?.['wallet_id'];
  if (typeof transactionId !== 'string' || typeof walletId !== 'string') throw new Error('The hold wrote no movement');
  return { transactionId, walletId };
}

/**
 * Captures or releases the hold of `reference` in one statement, with `riders`: written only when the hold exists
 * and no capture or release of it is visible to the statement. The row carries the hold's amount (`hold_amount`, null
 * without a hold) and the resolutions the statement saw.
 */
export async function resolveHoldStatement(
  tx: Transaction,
  ref: ApiKeyOwner,
  resolution: { kind: 'capture' | 'release'; reference: string; description: string | null },
  riders: readonly RidingStatement[],
): Promise<MovementOutcome & { holdFound: boolean; resolutions: Array<{ id: string; kind: string }> }> {
  const release = resolution.kind === 'release';
  // A capture moves the held money to the platform's revenue; a release back to the available balance.
  const outcome = await runMovement(
    tx,
    sql`with hold as (
        select amount from ${ledgerTransactions} where kind = 'hold' and reference = ${resolution.reference}::text
      ),
      moved as (
        update ${wallets} set
          available_balance = available_balance + ${release ? sql`hold.amount` : sql`0`},
          held_balance = held_balance - hold.amount,
          updated_at = now()
        from hold
        where ${walletOf(ref)} and held_balance >= hold.amount
          and not exists (select 1 from ${ledgerTransactions}
            where kind in ('capture', 'release') and reference = ${resolution.reference}::text)
        returning ${wallets}.*, hold.amount as moved_amount
      ),
      movement as (
        insert into ${ledgerTransactions}
          (wallet_id, kind, amount, reference, description, available_after, held_after, created_at)
        select id, ${resolution.kind}::text, moved_amount, ${resolution.reference}::text,
          ${resolution.description}::text, available_balance, held_balance, clock_timestamp()
        from moved
        returning id, wallet_id, amount
      ),
      entries as (
        insert into ${ledgerEntries} (transaction_id, wallet_id, account, amount)
        select id, wallet_id, 'held', -amount from movement
        union all
        select id, wallet_id, ${release ? 'available' : 'revenue'}::text, amount from movement
        returning 1
      )${riderCtes(riders)}
    ${movementAnswer(
      ref,
      sql`(select amount from hold) as hold_amount,
        (select coalesce(json_agg(json_build_object('id', id, 'kind', kind)), '[]') from ${ledgerTransactions}
          where kind in ('capture', 'release') and reference = ${resolution.reference}::text) as resolutions`,
      riders,
    )}`,
    riders,
  );
  const resolutions = outcome.row?.['resolutions'];
  return {
    ...outcome,
    holdFound: outcome.row?.['hold_amount'] !== null && outcome.row?.['hold_amount'] !== undefined,
    resolutions: (typeof resolutions === 'string' ? JSON.parse(resolutions) : (resolutions ?? [])) as Array<{
      id: string;
      kind: string;
    }>,
  };
}
