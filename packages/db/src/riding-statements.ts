import { type SQL, sql } from 'drizzle-orm';
import { type DatabaseExecutor, queryRows } from './client.js';

// Statements that ride along in another statement (docs/decisions.md#statements-per-request). A transaction's writes
// that do not depend on each other's answers need not each cost a round trip: each becomes a data-modifying CTE of
// one statement, which PostgreSQL runs as a whole, in the same snapshot, succeeding or failing together. The packages
// that own the tables build their rider (the webhooks package its outbox insert, the idempotency plugin its stored
// answer) and the code that owns the transaction decides which statement carries it: the last one before COMMIT
// usually, the one that takes the wallet's lock.
//
// Riders must not write a row that the carrying statement or another rider writes (PostgreSQL does not allow a
// statement to change one row twice), and see the database as it was when the statement began, not each other's
// rows.

/**
 * A condition of the carrying statement, such as `exists (select 1 from inserted)`, under which riders are written
 * (only when it holds). Built by the repository that writes the carrying statement; other code only passes it on.
 */
export type RiderCondition = SQL;

/** A data-modifying statement with a RETURNING clause, to run as a CTE of another statement. */
export interface RidingStatement {
  /** `insert ...`, `update ...` or `delete ...`, ending in `returning ...`. */
  statement: SQL;
  /** Told how many rows the statement returned, once the carrying statement has run. */
  returned?: (rows: number) => void;
}

const riderName = (index: number) => sql.raw(`rider_${index}`);

/** The name of the CTE of the rider at `index` of a carrying statement's riders, for a condition on what it wrote. */
export function riderReference(index: number): SQL {
  return riderName(index);
}

/** The riders as CTEs, each preceded by a comma, to follow a statement's own CTEs. */
export function riderCtes(riders: readonly RidingStatement[]): SQL {
  return sql.join(
    riders.map((rider, index) => sql`, ${riderName(index)} as (${rider.statement})`),
    sql``,
  );
}

/** The number of rows each rider returned, as columns (each preceded by a comma) of the carrying statement's answer. */
export function riderCounts(riders: readonly RidingStatement[]): SQL {
  return sql.join(
    riders.map((_, index) => sql`, (select count(*) from ${riderName(index)})::int as ${riderName(index)}`),
    sql``,
  );
}

/** Tells each rider what it returned, from the carrying statement's answer (its columns from `riderCounts`). */
export function reportRiders(riders: readonly RidingStatement[], row: Record<string, unknown> | undefined): void {
  riders.forEach((rider, index) => {
    rider.returned?.(Number(row?.[`rider_${index}`] ?? 0));
  });
}

/** Runs the riders by themselves, together in one statement; sends nothing when there are none. */
export async function sendRiders(db: DatabaseExecutor, riders: readonly RidingStatement[]): Promise<void> {
  if (riders.length === 0) return;
  const ctes = sql.join(
    riders.map((rider, index) => sql`${riderName(index)} as (${rider.statement})`),
    sql`, `,
  );
  const [row] = await queryRows(db, sql`with ${ctes} select 1 as sent${riderCounts(riders)}`);
  reportRiders(riders, row);
}
