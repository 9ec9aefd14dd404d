import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironments, MAX_ALLOWED_ORIGINS } from '../enums.js';
import { isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';

/**
 * The web origins (`https://shop.example`) whose pages may open an organization's hosted verification pages through
 * the front-end SDK, per environment: they may frame the page (its CSP `frame-ancestors`) and receive its events by
 * `postMessage` (docs/decisions.md#allowed-origins). No row, or an empty list: none may.
 */
export const allowedOrigins = pgTable(
  'allowed_origins',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    /** Each one an origin as main-api normalised it (scheme, host, port when not the default), no duplicates. */
    origins: text('origins').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.environment] }),
    check('allowed_origins_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    check('allowed_origins_count_check', sql`cardinality(${table.origins}) <= ${sql.raw(String(MAX_ALLOWED_ORIGINS))}`),
  ],
);

export type AllowedOrigins = typeof allowedOrigins.$inferSelect;
