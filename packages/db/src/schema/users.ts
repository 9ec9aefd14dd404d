import { sql } from 'drizzle-orm';
import { check, date, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { kycStatuses } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';

/**
 * A platform user. `id` is the bearer token's `sub`, so users are created by the identity provider's ids. The email
 * address is kept as the token wrote it and is one account's whatever its case (docs/decisions.md#one-account-per-email).
 */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    /** E.164, normalised by the service before it is stored. */
    phone: text('phone'),
    dob: date('dob', { mode: 'string' }),
    avatarUrl: text('avatar_url'),
    kycStatus: text('kyc_status', { enum: kycStatuses }).notNull().default('unverified'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at')
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [
    check('users_kyc_status_check', isOneOf(table.kycStatus, kycStatuses)),
    // `X@Probe.Test` and `x@probe.test` are one address: a second profile with it is refused, however many sign up
    // at once. Every comparison of users.email uses lower() too, so the index serves them.
    uniqueIndex('users_email_lower_idx').on(sql`lower(${table.email})`),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
