import { getTableColumns } from 'drizzle-orm';
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
