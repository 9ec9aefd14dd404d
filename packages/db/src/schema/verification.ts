import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironments, verificationStatuses, verificationTypes } from '../enums.js';
import { apiKeys } from './api-keys.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';
import { kes, wallets } from './wallets.js';

/** A KYC (individual) or KYB (business) verification, paid by a hold on the organization's wallet. */
export const verificationSessions = pgTable(
  'verification_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    walletId: uuid('wallet_id')
      .notNull()
      .references(() => wallets.id),
    type: text('type', { enum: verificationTypes }).notNull(),
    status: text('status', { enum: verificationStatuses }).notNull().default('pending'),
    externalEndUserId: text('external_end_user_id').notNull(),
    appName: text('app_name'),
    callbackUrl: text('callback_url'),
    /** The price held from the wallet when the session was created. */
    price: kes('price').notNull(),
    /** Documents the end user is asked for (business documents for kyb). */
    requiredDocuments: jsonb('required_documents').$type<string[]>().notNull(),
    /** Why the last submission was rejected or needs more input; shown to the end user and in callbacks. */
    lastError: text('last_error'),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    completedAt: timestamptz('completed_at'),
  },
  (table) => [
    // The list endpoint: newest first within an organization and environment.
    index('verification_sessions_list_idx').on(
      table.organizationId,
      table.environment,
      table.createdAt.desc(),
      table.id.desc(),
    ),
    index('verification_sessions_end_user_idx').on(table.organizationId, table.externalEndUserId),
    // The expiry job looks only at sessions that can still expire.
    index('verification_sessions_expiry_idx')
      .on(table.expiresAt)
      .where(sql`${table.status} in ('pending', 'requires_input')`),
    check('verification_sessions_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    check('verification_sessions_type_check', isOneOf(table.type, verificationTypes)),
    check('verification_sessions_status_check', isOneOf(table.status, verificationStatuses)),
    check('verification_sessions_price_check', sql`${table.price} >= 0`),
    check(
      'verification_sessions_external_end_user_id_check',
      sql`char_length(${table.externalEndUserId}) between 1 and 255`,
    ),
  ],
);

/** Every status change of a session, with who or what made it. */
export const verificationSessionTransitions = pgTable(
  'verification_session_transitions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => verificationSessions.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status', { enum: verificationStatuses }),
    toStatus: text('to_status', { enum: verificationStatuses }).notNull(),
    /** e.g. `api_key:<id>`, `hosted_page`, `expiry_job`. */
    actor: text('actor').notNull(),
    reason: text('reason'),
    createdAt: createdAt(),
  },
  (table) => [index('verification_session_transitions_session_idx').on(table.sessionId, table.createdAt)],
);

/** Per-organization prices that replace the default price of a verification type. */
export const verificationPrices = pgTable(
  'verification_prices',
  {
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    type: text('type', { enum: verificationTypes }).notNull(),
    price: kes('price').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.type] }),
    check('verification_prices_type_check', isOneOf(table.type, verificationTypes)),
    check('verification_prices_price_check', sql`${table.price} >= 0`),
  ],
);

export type VerificationSession = typeof verificationSessions.$inferSelect;
export type NewVerificationSession = typeof verificationSessions.$inferInsert;
export type VerificationSessionTransition = typeof verificationSessionTransitions.$inferSelect;
