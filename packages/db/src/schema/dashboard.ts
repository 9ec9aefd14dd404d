import { sql } from 'drizzle-orm';
import { check, index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * A customer's signed-in session of the dashboard (docs/decisions.md#dashboard-sign-in), opened after an OpenID
 * Connect sign-in. The cookie holds a random secret; only its SHA-256 is kept here, so this table opens no session.
 * Deleting the row ends the session (sign-out, every session of a user ended). A row past `expiresAt` opens nothing.
 */
export const dashboardSessions = pgTable(
  'dashboard_sessions',
  {
    /** SHA-256 of the cookie's secret, in lowercase hex. */
    secretHash: text('secret_hash').primaryKey(),
    /** The `sub` of the identity provider's access token: the same user id the API's bearer tokens give. */
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    /** Eight hours after sign-in, or the `exp` of the tokens it was opened with when that comes first. */
    expiresAt: timestamptz('expires_at').notNull(),
    /**
     * The ID token the sign-in gave, sent back to the identity provider as `id_token_hint` when sign-out ends its
     * session too (OpenID Connect RP-initiated logout); null for sessions opened before it was kept. It opens nothing
     * here nor at the API (its audience is the dashboard's client), and is gone with the row.
     */
    idToken: text('id_token'),
  },
  (table) => [
    // Serves "end every session of a user".
    index('dashboard_sessions_user_id_idx').on(table.userId),
    // Serves the purge of sessions that ran out.
    index('dashboard_sessions_expires_at_idx').on(table.expiresAt),
    check('dashboard_sessions_secret_hash_check', sql`${table.secretHash} ~ '^[0-9a-f]{64}$'`),
  ],
);

export type DashboardSession = typeof dashboardSessions.$inferSelect;
