import { type SQL, sql } from 'drizzle-orm';
import { type Database, queryRows, type Transaction } from './client.js';
import { DeferredToTransactionError, deferToTransaction, isDeferredToTransaction } from './database-error.js';

// The unit of work (docs/decisions.md#a-unit-of-work): the writes of one change, collected from the modules that own
// their tables (the session row, the hold, the ledger's rows, the outbox event, the audit row, the stored idempotent
// answer, the notifications) and sent together when the work is done, as one statement: each write is a
// data-modifying CTE of it, so they cost one round trip and commit together. The write that takes a contended lock
// (a wallet's row) comes first in that statement, and that statement last before COMMIT, so the lock is held for
// one round trip. A statement whose answer the work needs before it goes on (a read, the move of a session's status)
// is sent at once (`query`); the first one begins the unit's transaction. A unit that sent none commits its one
// statement by itself, without a transaction.
//
// Writes see the database as it was when the commit statement began, not each other's rows nor what a later `query`
// of the work reads; two writes must not change one row (PostgreSQL does not allow a statement to change a row
// twice).

/** An answer of the commit statement: one row, with the columns the writes asked for. */
export type CommitAnswer = Readonly<Record<string, unknown>>;

/** One write of a unit of work, as its owner's repository builds it. */
export interface Write {
  /**
   * The CTEs it adds to the commit statement, in order, each `[name, body]`: a data-modifying statement with
   * RETURNING, or a select that a later part or the answer reads. A part reads the parts before it by name; names
   * are unique in the unit (the unit refuses a second of one name) and written in lower case.
   */
  parts: ReadonlyArray<readonly [name: string, body: SQL]>;
  /** Columns of the commit statement's answer, each `[column, expression]`; the expressions read the parts. */
  answer?: ReadonlyArray<readonly [column: string, expression: SQL]>;
  /**
   * Takes a contended row lock (a wallet's): its parts open the commit statement and its answer columns come
   * first. At most one a unit.
   */
  locks?: boolean;
  /** A part that must return a row (`Required`). */
  required?: { part: string; refusal?: () => Error };
  /**
   * Told the commit statement's answer once it has run, inside the unit's transaction: it may send statements of
   * its own and add writes (sent in one more statement before COMMIT); what it throws rolls the unit back. A unit
   * with a write that settles always commits in a transaction.
   */
  settle?: (answer: CommitAnswer) => void | Promise<void>;
  /**
   * When the commit statement fails: the error to throw instead if the failure is this write's own (a unique index
   * of its table), undefined for any other.
   */
  failed?: (error: unknown) => unknown;
}

/**
 * What happens when a write returned no row: `true` (it must, or the work cannot commit as it is), or the error to
 * throw then. Outside a transaction the commit statement fails instead, writing nothing
 * (`defer_to_transaction`, migration 0024), and the unit runs its work again in a transaction.
 */
export type Required = true | (() => Error);

export interface WriteOptions {
  required?: Required;
  /** How many rows it returned, once the commit statement has run (see `Write.settle`). */
  written?: (rows: number) => void | Promise<void>;
  failed?: Write['failed'];
}

export interface UnitOfWork {
  /**
   * True when the unit commits in a transaction: once it has sent a statement (`query`, `transaction`), when it runs
   * again because its one statement could not commit by itself, and inside a caller's transaction. While it is
   * false, a write that has a form for each way adds the one that needs no transaction (refusing with `required`
   * where the other would settle).
   */
  readonly transactional: boolean;
  /**
   * Sends `statement` now and answers its rows, in the unit's transaction (begun by the first statement sent). It
   * does not see the writes added so far: they are sent at commit.
   */
  query<Row extends Record<string, unknown> = Record<string, unknown>>(statement: SQL): Promise<Row[]>;
  /** The unit's transaction (begun if it was not), for statements written with drizzle's builder: sent at once. */
  transaction(): Promise<Transaction>;
  /** Adds a write to send at commit. */
  add(write: Write): void;
  /** Adds one data-modifying statement (`insert ...`, `update ...`, `delete ...` with RETURNING) to send at commit. */
  write(statement: SQL, options?: WriteOptions): void;
}

/**
 * Runs `work` as one unit of work on `db` and commits it: its writes in one statement, alone when the work sent no
 * statement before, else in the transaction its first statement began, followed by COMMIT. When the one statement
 * could not commit by itself (a required write returned no row), it wrote nothing, and `work` runs once more in a
 * transaction (`transactional` then true from the start). What `work` throws rolls everything back.
 */
export async function unitOfWork<T>(db: Database, work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  try {
    return await runUnit(db, work, false);
  } catch (error) {
    if (!isDeferredToTransaction(error)) throw error;
  }
  return runUnit(db, work, true);
}

/**
 * Runs `work` as a unit of work inside the caller's transaction `tx`: its writes are sent in one statement when
 * `work` is done, before this returns; COMMIT is the caller's.
 */
export async function unitOfWorkIn<T>(tx: Transaction, work: (unit: UnitOfWork) => Promise<T>): Promise<T> {
  const unit = new Unit({ kind: 'caller', tx });
  const result = await work(unit);
  await unit.sendWrites(tx);
  return result;
}

async function runUnit<T>(db: Database, work: (unit: UnitOfWork) => Promise<T>, transactional: boolean): Promise<T> {
  const unit = new Unit({ kind: 'own', db, transactional });
  try {
    const result = await work(unit);
    await unit.commit();
    return result;
  } catch (error) {
    await unit.rollback(error);
    if (transactional && isDeferredToTransaction(error)) {
      throw new Error('A unit of work deferred to a transaction while in one', { cause: error });
    }
    throw error;
  }
}

type Scope = { kind: 'own'; db: Database; transactional: boolean } | { kind: 'caller'; tx: Transaction };

const PART_NAME = /^[a-z_][a-z0-9_]*$/;

class Unit implements UnitOfWork {
  readonly #scope: Scope;
  #pending: Write[] = [];
  readonly #names = new Set<string>();
  #written = 0;
  #open: Promise<OpenTransaction> | undefined;

  constructor(scope: Scope) {
    this.#scope = scope;
  }

  get transactional(): boolean {
    return this.#scope.kind === 'caller' || this.#scope.transactional || this.#open !== undefined;
  }

  async transaction(): Promise<Transaction> {
    if (this.#scope.kind === 'caller') return this.#scope.tx;
    this.#open ??= beginTransaction(this.#scope.db);
    return (await this.#open).tx;
  }

  async query<Row extends Record<string, unknown>>(statement: SQL): Promise<Row[]> {
    return queryRows<Row>(await this.transaction(), statement);
  }

  add(write: Write): void {
    for (const [name] of write.parts) {
      if (!PART_NAME.test(name)) throw new Error(`A write's part must be named in lower case (got "${name}")`);
      if (this.#names.has(name)) throw new Error(`A unit of work has two writes named "${name}"`);
    }
    if (write.parts.length === 0) throw new Error('A write has at least one part');
    if (write.locks === true && this.#pending.some((pending) => pending.locks === true)) {
      throw new Error('A unit of work takes one contended lock at most');
    }
    for (const [name] of write.parts) this.#names.add(name);
    this.#pending.push(write);
  }

  write(statement: SQL, options: WriteOptions = {}): void {
    this.#written += 1;
    const name = `write_${this.#written}`;
    const { written, required, failed } = options;
    this.add({
      parts: [[name, statement]],
      ...(written === undefined ? {} : { answer: [[name, sql`(select count(*) from ${sql.raw(name)})::int`]] }),
      ...(required === undefined
        ? {}
        : { required: { part: name, ...(required === true ? {} : { refusal: required }) } }),
      ...(written === undefined ? {} : { settle: (answer: CommitAnswer) => written(Number(answer[name] ?? 0)) }),
      ...(failed === undefined ? {} : { failed }),
    });
  }

  /** Commits a unit of its own: one statement by itself, or the writes in its transaction, then COMMIT. */
  async commit(): Promise<void> {
    if (this.#scope.kind === 'caller') throw new Error('A unit in a caller’s transaction is committed by the caller');
    const { db } = this.#scope;
    if (this.#open === undefined && this.#pending.length === 0) return;
    if (!this.transactional && this.#pending.every((write) => write.settle === undefined)) {
      await sendCommitStatement(db, this.#take(), { alone: true });
      return;
    }
    await this.sendWrites(await this.transaction());
    const open = this.#open;
    this.#open = undefined;
    await (await open)?.finish();
  }

  /** Sends the pending writes in `tx`, a statement at a time until settling them adds none. */
  async sendWrites(tx: Transaction): Promise<void> {
    for (let writes = this.#take(); writes.length > 0; writes = this.#take()) {
      const answer = await sendCommitStatement(tx, writes, { alone: false });
      for (const write of inStatementOrder(writes)) {
        const { required } = write;
        if (required !== undefined && Number(answer[rowsColumn(required.part)] ?? 0) === 0) {
          throw required.refusal?.() ?? new DeferredToTransactionError(required.part);
        }
        await write.settle?.(answer);
      }
    }
  }

  async rollback(error: unknown): Promise<void> {
    const open = this.#open;
    this.#open = undefined;
    if (open === undefined) return;
    // A transaction that could not begin has nothing to roll back; its error is the one thrown already.
    const begun = await open.then(
      (opened) => opened,
      () => undefined,
    );
    await begun?.finish(error ?? new Error('The unit of work failed'));
  }

  #take(): Write[] {
    const writes = this.#pending;
    this.#pending = [];
    return writes;
  }
}

/** The lock-taking write first, then the others in the order they were added. */
function inStatementOrder(writes: readonly Write[]): Write[] {
  return [...writes.filter((write) => write.locks === true), ...writes.filter((write) => write.locks !== true)];
}

const rowsColumn = (part: string) => `rows_of_${part}`;

/**
 * The writes as one statement, its one row of answer: each write's columns, and for each required part how many
 * rows it returned (in a transaction) or, sent alone, a last column that fails the statement when one returned none.
 */
async function sendCommitStatement(
  db: Database | Transaction,
  writes: readonly Write[],
  { alone }: { alone: boolean },
): Promise<CommitAnswer> {
  const ordered = inStatementOrder(writes);
  const ctes = ordered.flatMap((write) => write.parts.map(([name, body]) => sql`${sql.raw(name)} as (${body})`));
  const columns = ordered.flatMap((write) =>
    (write.answer ?? []).map(([column, expression]) => sql`${expression} as ${sql.raw(column)}`),
  );
  const required = ordered.flatMap((write) => (write.required === undefined ? [] : [write.required.part]));
  if (alone && required.length > 0) {
    const refusals = required.map(
      (part) => sql`when not exists (select 1 from ${sql.raw(part)}) then ${deferToTransaction(part)}`,
    );
    columns.push(sql`case ${sql.join(refusals, sql` `)} else true end as committed`);
  } else {
    for (const part of required) {
      columns.push(sql`(select count(*) from ${sql.raw(part)})::int as ${sql.raw(rowsColumn(part))}`);
    }
  }
  if (columns.length === 0) columns.push(sql`1 as sent`);
  try {
    const [row] = await queryRows(db, sql`with ${sql.join(ctes, sql`, `)} select ${sql.join(columns, sql`, `)}`);
    return row ?? {};
  } catch (error) {
    for (const write of ordered) {
      const own = write.failed?.(error);
      if (own !== undefined) throw own;
    }
    throw error;
  }
}

interface OpenTransaction {
  tx: Transaction;
  /** Ends the transaction: COMMIT, or ROLLBACK when given the error that ends it. */
  finish(error?: unknown): Promise<void>;
}

/**
 * Begins a transaction that stays open until `finish`: drizzle's `db.transaction(callback)`, its callback waiting for
 * the unit to end, so the unit can begin it at its first statement rather than around the whole work.
 */
function beginTransaction(db: Database): Promise<OpenTransaction> {
  return new Promise<OpenTransaction>((opened, failedToOpen) => {
    let end: (outcome: { error: unknown } | undefined) => void = () => {};
    const ending = new Promise<{ error: unknown } | undefined>((resolve) => {
      end = resolve;
    });
    const done = db.transaction(async (tx) => {
      opened({
        tx,
        finish: async (error) => {
          end(error === undefined ? undefined : { error });
          try {
            await done;
          } catch (failure) {
            if (error === undefined || failure !== error) throw failure;
          }
        },
      });
      const outcome = await ending;
      if (outcome !== undefined) throw outcome.error;
    });
    done.catch(failedToOpen);
  });
}
