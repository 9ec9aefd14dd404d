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
