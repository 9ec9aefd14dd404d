import { PGlite } from '@electric-sql/pglite';
import { type ExtractTablesWithRelations, type SQL, sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import * as schema from './schema/index.js';
import { sqlTextOf } from './sql-text.js';

export type Schema = typeof schema;

/** A drizzle database on either driver; code written against it runs on PGlite and PostgreSQL alike. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;

/** The `tx` handed to `db.transaction(async (tx) => ...)`. */
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

/** Anything queries can run on: the database itself or an open transaction. */
export type DatabaseExecutor = Database | Transaction;

export type DatabaseDriver = 'postgres' | 'pglite';

export interface DatabaseHandle {
  db: Database;
  driver: DatabaseDriver;
  /** Resolves when the database answers `select 1`; rejects otherwise. For readiness checks. */
  ping(): Promise<void>;
  /** Releases every connection (or shuts PGlite down). */
  close(): Promise<void>;
}

export interface CreateDatabaseOptions {
  /** PostgreSQL connection URL. Without it (or when empty) the database is an embedded PGlite. */
  url?: string;
  /** PGlite only: directory that persists the data. Without it PGlite keeps everything in memory. */
  dataDir?: string;
  /** PostgreSQL only: size of the connection pool. */
  maxConnections?: number;
}

const DEFAULT_MAX_CONNECTIONS = 10;

// migrateDatabase needs the URL to open its own connection for the advisory lock; kept out of the handle so
// the credentials it contains never end up in logs or serialised objects.
const connectionUrls = new WeakMap<Database, string>();

/** The PostgreSQL URL a database created by createDatabase() connects to, if it is on PostgreSQL. */
export function connectionUrlOf(db: Database): string | undefined {
  return connectionUrls.get(db);
}

export async function createDatabase(options: CreateDatabaseOptions = {}): Promise<DatabaseHandle> {
  // An empty URL counts as unset, as it does for every setting read from the environment.
  return options.url === undefined || options.url === ''
    ? createPgliteDatabase(options.dataDir)
    : createPostgresDatabase(options.url, { maxConnections: options.maxConnections });
}

const CONNECT_TIMEOUT_SECONDS = 5;

/** Seconds before reconnection attempt `retries` (from 1) after a failed connection: 0.1 s, growing to 1 s. */
function reconnectDelaySeconds(retries: number): number {
  return Math.min(0.1 * Math.max(retries, 1), 1);
}

/**
 * The PostgreSQL handle of createDatabase. `wrapClient` lets a test see what is sent: drizzle is given the client it
 * returns (`@platform/db/testing`'s statement log); the handle still closes the client itself.
 */
export function createPostgresDatabase(
  url: string,
  {
    maxConnections = DEFAULT_MAX_CONNECTIONS,
    wrapClient = (client) => client,
  }: { maxConnections?: number | undefined; wrapClient?: (client: postgres.Sql) => postgres.Sql } = {},
): DatabaseHandle {
  const client = postgres(url, {
    max: maxConnections,
    // Notices ("relation already exists, skipping" during migrations) are not errors; keep them out of the logs.
    onnotice: () => {},
    // While the database is away, a query waits for the next reconnection attempt, then fails (503 to the
    // client); a failed attempt fails every query waiting for a connection, not just one (patched, see
    // patches/postgres@3.4.9.patch). The driver's own backoff grows to 20 s, holding every request that long;
    // ours stays under 1 s, which a handful of pooled connections per instance cannot turn into a storm.
    backoff: reconnectDelaySeconds,
    // A database that does not answer at all (a dropped route) fails a connection attempt after 5 s, not 30.
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
  });
  const db: Database = drizzlePostgres({ client: wrapClient(client), schema });
  connectionUrls.set(db, url);
  return {
    db,
    driver: 'postgres',
    ping: () => selectOne(db),
    close: () => client.end({ timeout: 5 }),
  };
}

async function createPgliteDatabase(dataDir: string | undefined): Promise<DatabaseHandle> {
  const client = dataDir === undefined ? await PGlite.create() : await PGlite.create(dataDir);
  return wrapPglite(client);
}

/** Wraps an open PGlite instance in a handle; close() shuts that instance down. */
export function wrapPglite(client: PGlite): DatabaseHandle {
  const db: Database = drizzlePglite({ client, schema });
  return {
    db,
    driver: 'pglite',
    ping: () => selectOne(db),
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

async function selectOne(db: Database): Promise<void> {
  await db.execute(sql`select 1`);
}

/**
 * Rows of a raw SQL query on either driver. `db.execute` returns an array on postgres.js and `{ rows }` on
 * PGlite; this hides the difference.
 *
 * The query is sent as a named prepared statement, kept on each pooled connection by its text: postgres.js sends an
 * unnamed statement with parameters in two round trips (it asks for the parameters' types first) and PostgreSQL
 * parses and plans it every time, while a prepared one is one round trip with no parsing
 * (docs/benchmarks.md#prepared-write-statements-26-nov). So the text must come from a fixed template, every value a
 * parameter (never spliced in), and the answer's columns must not depend on a table's columns (no `*` in the final
 * select: a column added by a migration would change a prepared statement's result type; return a row as
 * `to_jsonb(...)` and read it with `tableRowOf`).
 */
export async function queryRows<Row extends Record<string, unknown>>(db: DatabaseExecutor, query: SQL): Promise<Row[]> {
  const prepared = db._.session.prepareQuery(sqlTextOf(query), undefined, 'query-rows', false);
  const result: unknown = await prepared.execute();
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}

/** A connection URL with its password masked, for printing. */
export function redactConnectionUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}
