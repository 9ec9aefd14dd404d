import { sql } from 'drizzle-orm';
import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * A reviewer's signed-in session of the review console (docs/decisions.md#console-sessions). The cookie holds a random
 * secret; only its SHA-256 is kept here, so this table opens no session. Deleting the row ends the session: sign-out,
 * the reviewer role taken away, an operator ending all of a user's sessions. A row past `expiresAt` opens nothing.
 */
export const reviewConsoleSessions = pgTable(
  'review_console_sessions',
  {
    /** SHA-256 of the cookie's secret, in lowercase hex. */
    secretHash: text('secret_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Eight hours after sign-in, or the `exp` of the access token it was opened with when that comes first. */
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [
    // Serves "end every session of a user".
    index('review_console_sessions_user_id_idx').on(table.userId),
    // Serves the purge of sessions that ran out.
    index('review_console_sessions_expires_at_idx').on(table.expiresAt),
    check('review_console_sessions_secret_hash_check', sql`${table.secretHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

export type ReviewConsoleSession = typeof reviewConsoleSessions.$inferSelect;
