import { sql } from 'drizzle-orm';
import { check, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { timestamptz } from './columns.js';
import { users } from './users.js';
import { verificationSessions } from './verification.js';

/**
 * A reviewer's claim on a session waiting for manual review: while it has not expired, no other reviewer may
 * claim or decide the session (docs/decisions.md#manual-review). One row per session, taken over when it expires.
 */
export const verificationReviewClaims = pgTable(
  'verification_review_claims',
  {
    sessionId: uuid('session_id')
      .primaryKey()
      .references(() => verificationSessions.id, { onDelete: 'cascade' }),
    reviewerId: text('reviewer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    claimedAt: timestamptz('claimed_at').notNull(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (table) => [check('verification_review_claims_expiry_check', sql`${table.expiresAt} > ${table.claimedAt}`)],
);

export type VerificationReviewClaim = typeof verificationReviewClaims.$inferSelect;
