import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { membershipRoles } from '../enums.js';
import { createdAt, isOneOf } from './columns.js';
import { users } from './users.js';

/** A customer account: billing, API keys and verification sessions belong to an organization. */
export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    /**
     * The highest requests-per-minute a member may give an API key (main-api's POST /v1/api-keys); null means
     * main-api's API_KEY_RATE_LIMIT_MAX_PER_MINUTE. Set by operators (backend-api's organizations command).
     */
    maxKeyRateLimitPerMinute: integer('max_key_rate_limit_per_minute'),
  },
  (table) => [
    check(
      'organizations_max_key_rate_limit_per_minute_check',
      sql`${table.maxKeyRateLimitPerMinute} is null or ${table.maxKeyRateLimitPerMinute} > 0`,
    ),
  ],
);

/** Which users belong to which organizations, and in what role. */
export const memberships = pgTable(
  'memberships',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: membershipRoles }).notNull().default('member'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    // The primary key serves lookups by organization; this one serves "organizations of a user".
    index('memberships_user_id_idx').on(table.userId),
    check('memberships_role_check', isOneOf(table.role, membershipRoles)),
  ],
);

export type Organization = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;
export type Membership = typeof memberships.$inferSelect;
export type NewMembership = typeof memberships.$inferInsert;
