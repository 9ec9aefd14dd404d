import { sql } from 'drizzle-orm';
import { check, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { BILLING_EMAIL_MAX_LENGTH, ORGANIZATION_ADDRESS_MAX_LENGTH } from '../enums.js';
import { createdAt, timestamptz } from './columns.js';

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
    /** Where the organization is, as its invoices should print it: up to 4 lines, 200 characters; optional. */
    address: text('address'),
    /** Where its billing mail (receipts, invoices, reminders) should go, besides its owners; optional. */
    billingEmail: text('billing_email'),
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
    /**
     * When the organization went live: its live API keys and live top-ups are refused until then
     * (docs/decisions.md#going-live). Set once, by the verification of its activation session or by an operator;
     * organizations that existed before activation were marked activated by its migration.
     */
    activatedAt: timestamptz('activated_at'),
    /**
     * The platform's KYB session that activates it when verified (the open one, or the last one started); no
     * foreign key, like every link across owners.
     */
    activationSessionId: uuid('activation_session_id'),
    /**
     * How many days after a final status its verification sessions' documents and personal data are kept, within
     * the platform's bounds (docs/decisions.md#retention-per-organization); null: the platform's default.
     */
    verificationRetentionDays: integer('verification_retention_days'),
    /**
     * The verification policy its live sessions are decided by, by name (docs/decisions.md#verification-policy):
     * null is the platform's default; an organization that pays for more checks is given another by an operator.
     */
    verificationPolicy: text('verification_policy'),
  },
  (table) => [
    // A session activates one organization at most.
    uniqueIndex('organizations_activation_session_id_unique').on(table.activationSessionId),
    check(
      'organizations_max_key_rate_limit_per_minute_check',
      sql`${table.maxKeyRateLimitPerMinute} is null or ${table.maxKeyRateLimitPerMinute} > 0`,
    ),
    check(
      'organizations_verification_retention_days_check',
      sql`${table.verificationRetentionDays} is null or ${table.verificationRetentionDays} > 0`,
    ),
    check(
      'organizations_address_check',
      sql`${table.address} is null or char_length(${table.address}) between 1 and ${sql.raw(String(ORGANIZATION_ADDRESS_MAX_LENGTH))}`,
    ),
    check(
      'organizations_billing_email_check',
      sql`${table.billingEmail} is null or char_length(${table.billingEmail}) between 3 and ${sql.raw(String(BILLING_EMAIL_MAX_LENGTH))}`,
    ),
    check(
      'organizations_kra_pin_check',
      sql`${table.kraPin} is null or ${table.kraPin} ~ ${sql.raw(`'${KRA_PIN_PATTERN}'`)}`,
    ),
  ],
);

export type Organization = typeof organizations.$inferSelect;
export type NewOrganization = typeof organizations.$inferInsert;
