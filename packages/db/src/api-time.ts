import { type AnyColumn, type SQL, sql } from 'drizzle-orm';

/**
 * A timestamp column as the APIs write times (`Date#toISOString`: UTC, milliseconds truncated, `Z`), formatted by
 * PostgreSQL, for statements read by position that hand the text on as it is (docs/benchmarks.md#the-payments-list-get-v1billingpayments-26-nov).
 * Null stays null.
 */
export function apiTimeOf<Text extends string | null = string>(column: AnyColumn | SQL): SQL<Text> {
  return sql<Text>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}
