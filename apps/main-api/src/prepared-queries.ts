import type { Database } from '@platform/db';

/**
 * One prepared query per database handle, built on first use. drizzle then builds the SQL once instead of
 * on every call, and postgres.js keeps the statement parsed on each pooled connection (a named prepared
 * statement) instead of parsing it again per call. For the queries of the busiest read endpoints, where
 * building and parsing cost more than the query itself (see docs/benchmarks.md).
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
