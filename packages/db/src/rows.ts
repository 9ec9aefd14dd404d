import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/**
 * A row of `table` from a raw query's answer (`queryRows`), keyed by the columns' database names, as drizzle would have
 * returned it from a select (its columns' own conversions: timestamps to Dates, bigints to numbers, JSON parsed). For
 * statements drizzle's builders cannot write, such as data-modifying CTEs.
 */
export function tableRowOf<Table extends PgTable>(table: Table, raw: Record<string, unknown>): Table['$inferSelect'] {
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as Table['$inferSelect'];
}

/**
 * The columns of `table` as they are in this code, read from `relation` (a CTE or alias of the table): `moved."id",
 * moved."status", ...`, for a raw query's answer that `tableRowOf` reads. Unlike `relation.*`, the list does not
 * change when a migration adds a column, so a prepared statement's result type stays the same (`queryRows`).
 */
export function columnsOf(table: PgTable, relation: string): SQL {
  return sql.raw(
    Object.values(getTableColumns(table))
      .map((column) => `${relation}."${column.name}"`)
      .join(', '),
  );
}
