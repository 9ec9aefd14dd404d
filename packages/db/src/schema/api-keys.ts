import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironments } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';
import { users } from './users.js';

/** Secret keys for the backend API. Only a SHA-256 hash of the secret and its last four characters are kept. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    name: text('name').notNull().default('Default'),
    /** SHA-256 hex of the whole secret; the unique index is the lookup path for every authenticated request. */
    secretHash: text('secret_hash').notNull().unique(),
    lastFour: text('last_four').notNull(),
    /** Requests per minute for this key; null means the service default. */
    rateLimitPerMinute: integer('rate_limit_per_minute'),
    createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (table) => [
    index('api_keys_organization_id_idx').on(table.organizationId),
    check('api_keys_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    check(
      'api_keys_rate_limit_per_minute_check',
      sql`${table.rateLimitPerMinute} is null or ${table.rateLimitPerMinute} > 0`,
    ),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
