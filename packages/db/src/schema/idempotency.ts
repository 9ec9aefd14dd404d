import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { idempotencyRecordStatuses } from '../enums.js';
import { isOneOf, timestamptz } from './columns.js';

/**
 * One row per idempotency key a client sent, within the scope of its credential. While the first request
 * runs the row is `in_progress` and `locked_at` says since when (also the owner's claim: a takeover moves
 * it); afterwards it is `completed` with the stored 2xx answer. Rows past `expires_at` count as absent and
 * are purged.
 */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    /** Who sent the key: derived from the credential (an API key id; a user and organization). */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    /** Method, route and a hash of the request, so a reused key with another request is recognised. */
    fingerprint: text('fingerprint').notNull(),
    status: text('status', { enum: idempotencyRecordStatuses }).notNull(),
    lockedAt: timestamptz('locked_at').notNull(),
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    // Set by the service's clock, like expires_at, so the two always agree.
    createdAt: timestamptz('created_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.key] }),
    // Serves the purge job.
    index('idempotency_records_expires_at_idx').on(table.expiresAt),
    check('idempotency_records_status_check', isOneOf(table.status, idempotencyRecordStatuses)),
    check('idempotency_records_key_check', sql`char_length(${table.key}) between 1 and 255`),
    // Only successful answers are stored.
    check(
      'idempotency_records_response_check',
      sql`${table.status} <> 'completed' or coalesce(${table.responseStatus} between 200 and 299, false)`,
    ),
  ],
);

export type IdempotencyRecord = typeof idempotencyRecords.$inferSelect;
export type NewIdempotencyRecord = typeof idempotencyRecords.$inferInsert;
