import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { connectionUrlOf, type DatabaseHandle, queryRows, type Schema } from './client.js';

/**
 * The committed drizzle-kit migrations. The folder sits beside src/ and dist/, so the same relative URL
 * finds it from the TypeScript sources and from the build.
 */
export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

/** How many migrations this package ships: the ones migrateDatabase applies to an empty database. */
export function countCommittedMigrations(): number {
  return readMigrationFiles({ migrationsFolder }).length;
}

// Any constant works as long as every migrator uses the same one; hashing a name keeps it readable.
const MIGRATION_LOCK_NAME = '@platform/db:migrate';

/** Applies every committed migration not yet applied. Safe to call on every start. */
export async function migrateDatabase(handle: DatabaseHandle): Promise<void> {
  if (handle.driver === 'pglite') {
    await migratePgliteSerially(handle.db as PgliteDatabase<Schema>);
    return;
  }
  const url = connectionUrlOf(handle.db);
  if (url === undefined) {
    throw new Error('migrateDatabase needs a PostgreSQL handle created by createDatabase({ url })');
  }
  await migratePostgresWithLock(url);
}

const pgliteMigrations = new WeakMap<PgliteDatabase<Schema>, Promise<void>>();

/**
 * PGlite lives in this process only, but two callers sharing it (both services of the local start) can
 * still interleave: drizzle's migrator reads the applied migrations before its transaction begins. Chaining
 * the runs per database makes the second one find nothing left to do.
 */
function migratePgliteSerially(db: PgliteDatabase<Schema>): Promise<void> {
  const previous = pgliteMigrations.get(db) ?? Promise.resolve();
  const run = previous.catch(() => {}).then(() => migratePglite(db, { migrationsFolder }));
  pgliteMigrations.set(db, run);
  return run;
}

/**
 * drizzle's migrator reads the last applied migration before it opens its transaction, so two instances
 * starting at once could both apply the same migration. A session advisory lock, taken on the single
 * connection the migrator then uses, makes the second instance wait and then find nothing left to do.
 * Closing the connection releases the lock, also when a migration fails.
 */
async function migratePostgresWithLock(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const db = drizzlePostgres({ client });
    await db.execute(sql`select pg_advisory_lock(hashtextextended(${MIGRATION_LOCK_NAME}, 0))`);
    await migratePostgres(db, { migrationsFolder });
  } finally {
    await client.end({ timeout: 5 });
  }
}

/** How many migrations the database has applied (0 before the first run). */
export async function countAppliedMigrations(handle: DatabaseHandle): Promise<number> {
  // Two queries: a statement naming a missing table fails at parse time, whatever its CASE says.
  const [journal] = await queryRows<{ exists: boolean }>(
    handle.db,
    sql`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`,
  );
  if (journal?.exists !== true) return 0;
  const [row] = await queryRows<{ applied: number }>(
    handle.db,
    sql`select count(*)::int as applied from drizzle.__drizzle_migrations`,
  );
  return Number(row?.applied ?? 0);
}
