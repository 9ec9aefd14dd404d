import {
  type ApiKeyOwner,
  apiTimeOf,
  type Database,
  type DatabaseExecutor,
  type LedgerAccount,
  type LedgerTransaction,
  type LedgerTransactionKind,
  preparedPerDatabase,
  prepareWithRowsMapper,
  type Transaction,
  type Wallet,
} from '@platform/db';
import { ledgerEntries, ledgerTransactions, wallets } from '@platform/db/schema/wallets';
import { cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';

// Every statement of the wallet ledger. The functions take the executor first, so they run in the caller's
// transaction; the statement's page, prepared per database, takes the database itself.

/**
 * Creates the wallet of an organization in an environment; does nothing when it exists. With `credit` above 0 the
 * new wallet starts with it, recorded as a top-up of `credit.reference` in the same statement: only the statement
 * that inserted the wallet writes it, so racing first uses credit it once (docs/decisions.md#test-credit).
 */
export async function insertWalletIfMissing(
  db: DatabaseExecutor,
  ref: ApiKeyOwner,
  credit?: { amount: number; reference: string; description: string },
): Promise<void> {
  if (credit === undefined || credit.amount <= 0) {
    await db
      .insert(wallets)
      .values({ organizationId: ref.organizationId, environment: ref.environment })
      .onConflictDoNothing({ target: [wallets.organizationId, wallets.environment] });
    return;
  }
  const amount = sql`${credit.amount}::bigint`;
  await db.execute(sql`with created as (
      insert into ${wallets} (organization_id, environment, available_balance)
      values (${ref.organizationId}::uuid, ${ref.environment}::text, ${amount})
      on conflict (organization_id, environment) do nothing
      returning id, available_balance, held_balance
    ), movement as (
      insert into ${ledgerTransactions}
        (wallet_id, kind, amount, reference, description, available_after, held_after, created_at)
      select id, 'top_up', ${amount}, ${credit.reference}::text, ${credit.description}::text,
        available_balance, held_balance, clock_timestamp()
      from created
      returning id, wallet_id
    )
    insert into ${ledgerEntries} (transaction_id, wallet_id, account, amount)
    select id, wallet_id, 'available', ${amount} from movement
    union all
    select id, wallet_id, 'funding', -${amount} from movement`);
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

/** The wallet a ledger transaction moved money on. */
export async function findTransactionWalletId(
  db: DatabaseExecutor,
  transactionId: string,
): Promise<string | undefined> {
  const [transaction] = await db
    .select({ walletId: ledgerTransactions.walletId })
    .from(ledgerTransactions)
    .where(eq(ledgerTransactions.id, transactionId));
  return transaction?.walletId;
}

/** True when a wallet of the organization ever had a ledger movement (docs/decisions.md#organization-deletion). */
export async function hasLedgerHistory(db: DatabaseExecutor, organizationId: string): Promise<boolean> {
  const [ledger] = await db
    .select({ id: ledgerTransactions.id })
    .from(ledgerTransactions)
    .innerJoin(wallets, eq(wallets.id, ledgerTransactions.walletId))
    .where(eq(wallets.organizationId, organizationId))
    .limit(1);
  return ledger !== undefined;
}
