import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import type { PagePosition } from './cursor.js';

// The SQL side of cursor paging (cursor.ts): what a list query selects to build its cursor and the condition
// that starts it after the cursor's row, newest first by (createdAt, id).

/** The columns a list is ordered by. */
interface PagedColumns {
  createdAt: AnyColumn;
  id: AnyColumn;
}

/**
 * `createdAt` as the cursor holds it. Full precision: a millisecond Date could skip or repeat rows whose times
 * differ in microseconds.
 */
export function cursorTimeOf(createdAt: AnyColumn | SQL): SQL<string> {
  return sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/** The rows after the row at `after` (a decoded cursor), newest first; `idType` is the id column's type. */
export function afterPosition(columns: PagedColumns, after: PagePosition, idType: 'uuid' | 'text' = 'uuid'): SQL {
  const id = idType === 'text' ? sql`${after.id}::text` : sql`${after.id}::uuid`;
  return sql`(${columns.createdAt}, ${columns.id}) < (${after.createdAt}::timestamptz, ${id})`;
}
