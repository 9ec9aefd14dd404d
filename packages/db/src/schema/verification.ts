import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { DocumentKind } from '../enums.js';
import {
  apiKeyEnvironments,
  decisionSourceKinds,
  documentContentTypes,
  documentKinds,
  providerJobKinds,
  providerJobStatuses,
  sessionErrorCodes,
  sessionLocales,
  verificationCheckKinds,
  verificationCheckOutcomes,
  verificationCheckSources,
  verificationProviders,
  verificationStatuses,
  verificationTypes,
} from '../enums.js';
import { apiKeys } from './api-keys.js';
import { bytea, createdAt, isOneOf, timestamptz } from './columns.js';
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
    /** The language of the hosted page and its consent text. */
    locale: text('locale', { enum: sessionLocales }).notNull().default('en'),
    /** Where the hosted page sends the person after a final status; checked like callbackUrl. */
    returnUrl: text('return_url'),
    /**
     * The customer's privacy notice, linked from the hosted page's consent notice; checked like callbackUrl.
     * Null when not given (the notice then says nothing about one).
     */
    privacyNoticeUrl: text('privacy_notice_url'),
    /**
     * What decides the session once submitted, fixed at creation from the configuration of its environment and
     * type, so a configuration change never moves a running session to another decider.
     */
    decisionSource: text('decision_source', { enum: decisionSourceKinds }).notNull(),
    /** The price held from the wallet when the session was created. */
    price: kes('price').notNull(),
    /** Documents the end user is asked for (business documents for kyb). */
    requiredDocuments: jsonb('required_documents').$type<string[]>().notNull(),
    /** Why the last submission was rejected or needs more input; shown to the end user and in callbacks. */
    lastError: text('last_error'),
    /**
     * A machine-readable code for lastError when the service set it for a reason of its own (`consent_declined`:
     * docs/decisions.md#declined-consent); null otherwise. Set and cleared with lastError.
     */
    lastErrorCode: text('last_error_code', { enum: sessionErrorCodes }),
    /**
     * The details the person submitted (ID type and number, or registration number and company name), as
     * ciphertext only: the vault encrypts them before they reach this column and nothing ever writes plaintext
     * here. Null before a submission and after erasure.
     */
    submittedDetails: bytea('submitted_details'),
    /**
     * The hosted page's capture form as typed so far (ID type and number, or registration number and company name),
     * sealed with AES-256-GCM under the page's secret and bound to the session (hosted-page/draft.ts): kept here
     * between the upload, the review and the submit so no URL ever carries it; cleared on submit and on erasure.
     */
    hostedPageDraft: text('hosted_page_draft'),
    /**
     * While `requires_input`: the document kinds the decision asked to be sent again (the reason is lastError).
     * Only these are taken until the next submission; null in every other status.
     */
    resubmitDocuments: jsonb('resubmit_documents').$type<DocumentKind[]>(),
    /**
     * What was verified (names, date of birth, ID type and number, expiry, nationality; for kyb the registered
     * company and its directors and owners), sealed by the vault under `<type>/<sessionId>/verified` like the
     * submitted details; written with a verified decision, null before it and after erasure
     * (docs/decisions.md#verified-data).
     */
    verifiedOutputs: bytea('verified_outputs'),
    /**
     * HMAC-SHA256 of the ID type and number under a key derived from the document key: finds the same number verified
     * for another end user of the organization without keeping the number readable (docs/decisions.md#verification-checks).
     * Kept after erasure, since it reveals nothing and the check must outlive the documents.
     */
    idNumberDigest: text('id_number_digest'),
    /** A director's own kyc, made for a kyb session: the kyb session it belongs to (docs/decisions.md#directors). */
    parentSessionId: uuid('parent_session_id').references((): AnyPgColumn => verificationSessions.id, {
      onDelete: 'set null',
    }),
    /** The policy whose checks decided the submission (docs/decisions.md#verification-policy); null before one. */
    decisionPolicy: text('decision_policy'),
    /** When the person last submitted (documents and details) for a decision. */
    submittedAt: timestamptz('submitted_at'),
    /** When its documents and submitted details were erased (retention or the customer's request). */
    personalDataErasedAt: timestamptz('personal_data_erased_at'),
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
    // main-api's list of an organization's sessions, both environments at once (docs/decisions.md#organization-session-list):
    // newest first, and newest first within one status.
    // NULLS FIRST, as `order by ... desc` sorts, so the index gives the order without a sort.
    index('verification_sessions_organization_list_idx').on(
      table.organizationId,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    index('verification_sessions_organization_status_idx').on(
      table.organizationId,
      table.status,
      table.createdAt.desc().nullsFirst(),
      table.id.desc().nullsFirst(),
    ),
    // The duplicate ID number check: the same number within an organization and environment.
    index('verification_sessions_id_number_digest_idx')
      .on(table.organizationId, table.environment, table.idNumberDigest)
      .where(sql`${table.idNumberDigest} is not null`),
    index('verification_sessions_parent_idx')
      .on(table.parentSessionId)
      .where(sql`${table.parentSessionId} is not null`),
    // The expiry job looks only at sessions that can still expire.
    index('verification_sessions_expiry_idx')
      .on(table.expiresAt)
      .where(sql`${table.status} in ('pending', 'requires_input')`),
    // The retention job looks only at final sessions whose personal data is still kept.
    index('verification_sessions_retention_idx')
      .on(table.completedAt)
      .where(sql`${table.completedAt} is not null and ${table.personalDataErasedAt} is null`),
    // The review queue: submitted sessions waiting for a person, oldest first.
    index('verification_sessions_review_queue_idx')
      .on(table.submittedAt, table.id)
      .where(sql`${table.status} = 'processing' and ${table.decisionSource} = 'manual'`),
    check('verification_sessions_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    check('verification_sessions_type_check', isOneOf(table.type, verificationTypes)),
    check('verification_sessions_status_check', isOneOf(table.status, verificationStatuses)),
    check('verification_sessions_locale_check', isOneOf(table.locale, sessionLocales)),
    check('verification_sessions_decision_source_check', isOneOf(table.decisionSource, decisionSourceKinds)),
    check('verification_sessions_price_check', sql`${table.price} >= 0`),
    check(
      'verification_sessions_last_error_code_check',
      sql`${table.lastErrorCode} is null or ${isOneOf(table.lastErrorCode, sessionErrorCodes)}`,
    ),
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

/**
 * A document a person sent for a session: metadata only; the file itself is encrypted in storage under
 * `storage_key`, with a data key wrapped by the master key `encryption_key_id`. A resubmission of the same kind
 * supersedes the earlier one; erasure deletes the file and sets `erased_at`, keeping the row.
 */
export const verificationDocuments = pgTable(
  'verification_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => verificationSessions.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: documentKinds }).notNull(),
    /** The type the content was found to be by its bytes. */
    contentType: text('content_type', { enum: documentContentTypes }).notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    /** SHA-256 of the file as received (before encryption), lowercase hex. */
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull().unique(),
    /** The id of the master key that wrapped the file's data key (keys rotate). */
    encryptionKeyId: text('encryption_key_id').notNull(),
    createdAt: createdAt(),
    supersededAt: timestamptz('superseded_at'),
    erasedAt: timestamptz('erased_at'),
  },
  (table) => [
    index('verification_documents_session_idx').on(table.sessionId, table.createdAt),
    check('verification_documents_kind_check', isOneOf(table.kind, documentKinds)),
    check('verification_documents_content_type_check', isOneOf(table.contentType, documentContentTypes)),
    check('verification_documents_size_bytes_check', sql`${table.sizeBytes} > 0`),
    check('verification_documents_sha256_check', sql`${table.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * The person's consent before any capture (Kenya Data Protection Act 2019): which text they agreed to, in which
 * language, from where and when. One row per text version agreed to: a new version is agreed to again.
 */
export const verificationConsents = pgTable(
  'verification_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => verificationSessions.id, { onDelete: 'cascade' }),
    /** The version of the consent text shown, so the exact wording can be found again. */
    textVersion: text('text_version').notNull(),
    locale: text('locale', { enum: sessionLocales }).notNull(),
    /**
     * Where the agreement came from, and with what browser: null once the session's personal data is erased (the
     * time, text version and locale stay as evidence that consent was given).
     */
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (table) => [
    index('verification_consents_session_idx').on(table.sessionId, table.createdAt),
    check('verification_consents_locale_check', isOneOf(table.locale, sessionLocales)),
  ],
);

/**
 * A session's checks at an automated provider (docs/decisions.md#automated-decisions). The row is written in the
 * submission's transaction (`creating`), so a job the provider never took is found and retried by the job loop;
 * the provider's call happens after that commit. Its id is the `job_id` the provider is given, known only to the
 * provider and to this service. One open (creating or submitted) job per session.
 */
export const verificationProviderJobs = pgTable(
  'verification_provider_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => verificationSessions.id, { onDelete: 'cascade' }),
    provider: text('provider', { enum: verificationProviders }).notNull(),
    /** What the job asks the provider; a session's jobs run one after another (docs/decisions.md#verification-checks). */
    kind: text('kind', { enum: providerJobKinds }).notNull(),
    /** The provider's own id of the job (Smile ID's SmileJobID), once it gave one. */
    providerJobId: text('provider_job_id'),
    status: text('status', { enum: providerJobStatuses }).notNull().default('creating'),
    /** The provider's result code that decided the session (never its text). */
    resultCode: text('result_code'),
    /** How many times the job was sent to the provider (created, or asked about while it had no result). */
    attempts: integer('attempts').notNull().default(0),
    /** Why the last call failed, in this service's words (a status or an error class; never personal data). */
    lastError: text('last_error'),
    /** When the provider took the job. */
    submittedAt: timestamptz('submitted_at'),
    completedAt: timestamptz('completed_at'),
    /** When the job loop looks at it next: to create it again, or to ask the provider for a missing result. */
    nextCheckAt: timestamptz('next_check_at').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('verification_provider_jobs_open_session_idx')
      .on(table.sessionId)
      .where(sql`${table.status} in ('creating', 'submitted')`),
    // The job loop: open jobs by when they are due.
    index('verification_provider_jobs_due_idx')
      .on(table.nextCheckAt)
      .where(sql`${table.status} in ('creating', 'submitted')`),
    index('verification_provider_jobs_session_idx').on(table.sessionId, table.createdAt),
    check('verification_provider_jobs_provider_check', isOneOf(table.provider, verificationProviders)),
    check('verification_provider_jobs_status_check', isOneOf(table.status, providerJobStatuses)),
    check('verification_provider_jobs_kind_check', isOneOf(table.kind, providerJobKinds)),
    check('verification_provider_jobs_attempts_check', sql`${table.attempts} >= 0`),
  ],
);

/**
 * One check of a session's submission and its result (docs/decisions.md#verification-checks): made by this service
 * (MRZ, expiry, age, a duplicate ID number), by Smile ID, or faked for a test session. `summary` and `details` say
 * what was found in words and codes that carry nothing of the person (which fields differ, which photo the selfie
 * was compared with, how many screening hits); what the person's data itself showed (the registry's names, the
 * screening hits) is `evidence`, sealed by the vault, erased with the documents.
 */
export const verificationChecks = pgTable(
  'verification_checks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => verificationSessions.id, { onDelete: 'cascade' }),
    /** The submission the check is of (a resubmission is checked again). */
    submittedAt: timestamptz('submitted_at').notNull(),
    kind: text('kind', { enum: verificationCheckKinds }).notNull(),
    source: text('source', { enum: verificationCheckSources }).notNull(),
    outcome: text('outcome', { enum: verificationCheckOutcomes }).notNull(),
    /** The provider's result code, or this service's code for what it found (`id_number_mismatch`). */
    code: text('code'),
    /** For the reviewer and the callbacks' consumers, in this service's words: never the person's data. */
    summary: text('summary').notNull(),
    /** Facts without personal data: `{ comparedWith: 'registry_photo' }`, `{ mismatched: ['idNumber'] }`. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    /** The person's data the check saw, sealed by the vault under `<type>/<sessionId>/checks/<id>`; erased with the documents. */
    evidence: bytea('evidence'),
    providerJobId: uuid('provider_job_id').references(() => verificationProviderJobs.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (table) => [
    index('verification_checks_session_idx').on(table.sessionId, table.submittedAt, table.createdAt),
    check('verification_checks_kind_check', isOneOf(table.kind, verificationCheckKinds)),
    check('verification_checks_source_check', isOneOf(table.source, verificationCheckSources)),
    check('verification_checks_outcome_check', isOneOf(table.outcome, verificationCheckOutcomes)),
  ],
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
export type VerificationDocument = typeof verificationDocuments.$inferSelect;
export type NewVerificationDocument = typeof verificationDocuments.$inferInsert;
export type VerificationConsent = typeof verificationConsents.$inferSelect;
export type NewVerificationConsent = typeof verificationConsents.$inferInsert;
export type VerificationProviderJob = typeof verificationProviderJobs.$inferSelect;
export type NewVerificationProviderJob = typeof verificationProviderJobs.$inferInsert;
export type VerificationCheck = typeof verificationChecks.$inferSelect;
export type NewVerificationCheck = typeof verificationChecks.$inferInsert;
