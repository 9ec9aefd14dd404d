import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { type ApiKeyPermission, apiKeyEnvironments, apiKeyPermissions } from '../enums.js';
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
    /**
     * What the key may do beyond the sessions themselves (docs/decisions.md#verified-data): `verified_data:read`
     * reads what was verified. Empty by default: a key that only starts sessions never reads a person's data.
     */
    permissions: jsonb('permissions').$type<ApiKeyPermission[]>().notNull().default([]),
    createdByUserId: text('created_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: timestamptz('revoked_at'),
    lastUsedAt: timestamptz('last_used_at'),
  },
  (table) => [
    index('api_keys_organization_id_idx').on(table.organizationId),
    check('api_keys_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    check(
      'api_keys_permissions_check',
      sql`jsonb_typeof(${table.permissions}) = 'array' and ${table.permissions} <@ ${sql.raw(`'${JSON.stringify(apiKeyPermissions)}'::jsonb`)}`,
    ),
    check(
      'api_keys_rate_limit_per_minute_check',
      sql`${table.rateLimitPerMinute} is null or ${table.rateLimitPerMinute} > 0`,
    ),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;
export type NewApiKey = typeof apiKeys.$inferInsert;
