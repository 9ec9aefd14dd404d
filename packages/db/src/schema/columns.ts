import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, customType, timestamp } from 'drizzle-orm/pg-core';

/** A timestamptz column returned as a Date. */
export function timestamptz(name: string) {
  return timestamp(name, { withTimezone: true, mode: 'date' });
}

/** `createdAt timestamptz not null default now()`, shared by every table. */
export function createdAt() {
  return timestamptz('created_at').notNull().defaultNow();
}

/** SQL for `column in ('a', 'b', ...)`, used by CHECK constraints over the value lists in enums.ts. */
export function isOneOf(column: AnyPgColumn, values: readonly string[]): SQL {
  const literals = values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
  return sql`${column} in (${sql.raw(literals)})`;
}

/** A `bytea` column (drizzle has no built-in one), read as bytes whichever driver runs the query. */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => new Uint8Array(value),
});
