import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironments, invitationStatuses, MAX_ALLOWED_ORIGINS, membershipRoles } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { users } from './users.js';

/** A KRA PIN: a letter, nine digits, a letter (stored upper case). */
export const KRA_PIN_PATTERN = '^[A-Z][0-9]{9}[A-Z]$';

/** A customer account: billing, API keys and verification sessions belong to an organization. */
export const organizations = pgTable(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    /** The organization's KRA PIN, for its billing documents; optional. */
    kraPin: text('kra_pin'),
    createdAt: createdAt(),
    /**
     * Set when an organization with money history was ended by its owner: it keeps its ledger, loses its members,
     * keys and callback defaults (docs/decisions.md#organizations-are-retired-not-deleted).
     */
    retiredAt: timestamptz('retired_at'),
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
    check(
      'organizations_kra_pin_check',
      sql`${table.kraPin} is null or ${table.kraPin} ~ ${sql.raw(`'${KRA_PIN_PATTERN}'`)}`,
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

/**
 * An invitation to join an organization in a role, sent to an email address. It is accepted by the user whose
 * token carries that address (case-insensitive), at most once, before `expiresAt`.
 */
export const organizationInvitations = pgTable(
  'organization_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: membershipRoles }).notNull(),
    status: text('status', { enum: invitationStatuses }).notNull().default('pending'),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    acceptedBy: text('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    /** When it was accepted or revoked. */
    closedAt: timestamptz('closed_at'),
  },
  (table) => [
    // One pending invitation per address and organization: a second is a 409, however many arrive at once.
    uniqueIndex('organization_invitations_one_pending_idx')
      .on(table.organizationId, sql`lower(${table.email})`)
      .where(sql`${table.status} = 'pending'`),
    // Serves "the organization's invitations, newest first".
    index('organization_invitations_organization_id_created_at_idx').on(table.organizationId, table.createdAt),
    check('organization_invitations_role_check', isOneOf(table.role, membershipRoles)),
    check('organization_invitations_status_check', isOneOf(table.status, invitationStatuses)),
  ],
);

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

export type Organization = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;
export type Membership = typeof memberships.$inferSelect;
export type NewMembership = typeof memberships.$inferInsert;
export type OrganizationInvitation = typeof organizationInvitations.$inferSelect;
export type NewOrganizationInvitation = typeof organizationInvitations.$inferInsert;
export type AllowedOrigins = typeof allowedOrigins.$inferSelect;
