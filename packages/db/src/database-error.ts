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
 * A call of `defer_to_transaction(reason)` in SQL, as the condition of a statement sent outside a transaction: the
 * statement failed and wrote nothing, so the caller runs its transactional path (docs/decisions.md#a-create-in-one-statement).
 */
export function deferToTransaction(reason: string): SQL {
  return sql`defer_to_transaction(${reason}::text)`;
}

/** True when `error` is a statement's deferral to the transactional path (`deferToTransaction`). */
export function isDeferredToTransaction(error: unknown): boolean {
  return databaseErrorOf(error)?.code === DEFERRED_TO_TRANSACTION;
}
