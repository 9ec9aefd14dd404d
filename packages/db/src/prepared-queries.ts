import type { Query } from 'drizzle-orm';
import type { PgPreparedQuery, PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Database } from './client.js';

/**
 * One prepared query per database handle, built on first use. drizzle then builds the SQL once instead of
 * on every call, and postgres.js keeps the statement parsed on each pooled connection (a named prepared
 * statement) instead of parsing it again per call. For the queries of the busiest read endpoints, where
 * building and parsing cost more than the query itself
 * (docs/benchmarks.md#queries-built-per-request-get-v1billingupgradepreview).
 */
export function preparedPerDatabase<Query>(prepare: (db: Database) => Query): (db: Database) => Query {
  const prepared = new WeakMap<Database, Query>();
  return (db) => {
    let query = prepared.get(db);
    if (query === undefined) {
      query = prepare(db);
      prepared.set(db, query);
    }
    return query;
  };
}

/** A built query whose SQL can be read: any drizzle select, insert, update or delete builder. */
interface BuiltQuery {
  toSQL(): Query;
}

/**
 * drizzle-orm has no public way to prepare a statement with a row mapper of one's own, so this calls its
 * session's `prepareQuery(query, fields, name, isResponseInArrayMode, customResultMapper)`, the internal method
 * its builders' `.prepare()` call. Kept on purpose: on the busiest list endpoint drizzle's per-cell mapping costs
 * more than PostgreSQL's work (docs/benchmarks.md). prepared-queries.test.ts pins the drizzle-orm version this was
 * checked against and fails loudly on an upgrade, so the signature is checked again before one lands.
 *
 * Like a drizzle builder's `.prepare(name)`, but the driver's rows (arrays of cells, in select order) go
 * through `mapRows` instead of drizzle's generic per-cell mapping, which costs more than parsing the rows on a
 * list endpoint (docs/benchmarks.md#a-full-page-of-notifications-get-v1notifications). The statement is still
 * named and prepared on each pooled connection. Use it only where the mapping is simple: the cells come as the
 * driver parses them (text, booleans, numbers).
 */
export function prepareWithRowsMapper<Result>(
  db: Database,
  name: string,
  query: BuiltQuery,
  mapRows: (rows: unknown[][]) => Result,
): PgPreparedQuery<PreparedQueryConfig & { execute: Result }> {
  return db._.session.prepareQuery<PreparedQueryConfig & { execute: Result }>(
    query.toSQL(),
    undefined,
    name,
    true,
    mapRows,
  );
}
