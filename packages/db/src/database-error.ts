import { type SQL, sql } from 'drizzle-orm';

/**
 * The SQLSTATE and constraint of a PostgreSQL error behind drizzle's wrapper, whichever driver raised it (postgres.js
 * calls the constraint `constraint_name`, PGlite `constraint`); undefined for anything that is not one. Repositories
 * use it to turn a unique or foreign key violation into an answer of their own.
 */
export function databaseErrorOf(error: unknown): { code?: string; constraint?: string } | undefined {
  const cause = (error as { cause?: unknown } | undefined)?.cause ?? error;
  if (typeof cause !== 'object' || cause === null) return undefined;
  const { code, constraint, constraint_name } = cause as {
    code?: unknown;
    constraint?: unknown;
    constraint_name?: unknown;
  };
  const name =
    typeof constraint === 'string' ? constraint : typeof constraint_name === 'string' ? constraint_name : undefined;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(name === undefined ? {} : { constraint: name }),
  };
}

/** SQLSTATE of `defer_to_transaction(reason)` (migration 0024). */
const DEFERRED_TO_TRANSACTION = 'PD001';

/**
 * A call of `defer_to_transaction(reason)` in SQL, as the condition of a unit of work's statement sent outside a
 * transaction: the statement fails and writes nothing, so the unit runs its work again in a transaction
 * (docs/decisions.md#a-unit-of-work).
 */
export function deferToTransaction(reason: string): SQL {
  return sql`defer_to_transaction(${reason}::text)`;
}

/** A unit of work in a transaction whose required write returned no row and that has no error of its own for it. */
export class DeferredToTransactionError extends Error {
  constructor(part: string) {
    super(`The write ${part} of a unit of work returned no row`);
    this.name = 'DeferredToTransactionError';
  }
}

/** True when `error` is a unit of work's deferral to a transaction (`deferToTransaction`, `DeferredToTransactionError`). */
export function isDeferredToTransaction(error: unknown): boolean {
  return error instanceof DeferredToTransactionError || databaseErrorOf(error)?.code === DEFERRED_TO_TRANSACTION;
}
