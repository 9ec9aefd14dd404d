import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, unique, uuid } from 'drizzle-orm/pg-core';
import { apiKeyEnvironments, webhookAttemptOutcomes, webhookEventStatuses } from '../enums.js';
import { createdAt, isOneOf, timestamptz } from './columns.js';
import { organizations } from './organizations.js';

/**
 * An organization's callback settings per environment: the signing secret (Standard Webhooks `whsec_`),
 * the previous secret while a rotation is in its grace period, and an optional default URL used when a
 * session has no callbackUrl. An endpoint that answered 410 Gone is disabled.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    defaultUrl: text('default_url'),
    secret: text('secret').notNull(),
    /** When the current secret was last shown to a member; it is shown once. */
    secretRevealedAt: timestamptz('secret_revealed_at'),
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: timestamptz('previous_secret_expires_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (table) => [
    unique('webhook_endpoints_organization_environment_unique').on(table.organizationId, table.environment),
    check('webhook_endpoints_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
  ],
);

/** URLs that answered 410 Gone: nothing more is sent to them for that organization and environment. */
export const disabledWebhookTargets = pgTable(
  'disabled_webhook_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    url: text('url').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (table) => [unique('disabled_webhook_targets_unique').on(table.organizationId, table.environment, table.url)],
);

/**
 * The transactional outbox: an event is written in the same transaction as the change it reports, then
 * delivered by a worker. `id` is the Standard Webhooks message id (`webhook-id`), stable across retries.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    environment: text('environment', { enum: apiKeyEnvironments }).notNull(),
    type: text('type').notNull(),
    /** The exact JSON body sent (and signed). */
    payload: jsonb('payload').notNull(),
    targetUrl: text('target_url'),
    status: text('status', { enum: webhookEventStatuses }).notNull().default('pending'),
    /** Tries of the current delivery; a redelivery starts again from 0. */
    attempts: integer('attempts').notNull().default(0),
    /** Which delivery of the event is the current one: 1, then one more per redelivery (docs/decisions.md#redelivery). */
    deliveries: integer('deliveries').notNull().default(1),
    nextAttemptAt: timestamptz('next_attempt_at').notNull(),
    /** A worker's claim while it sends; another instance may retry after it passes. */
    lockedUntil: timestamptz('locked_until'),
    lastResponseStatus: integer('last_response_status'),
    lastError: text('last_error'),
    deliveredAt: timestamptz('delivered_at'),
    createdAt: createdAt(),
  },
  (table) => [
    // The worker's queue: due events still pending.
    index('webhook_events_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('webhook_events_organization_idx').on(table.organizationId, table.createdAt),
    check('webhook_events_environment_check', isOneOf(table.environment, apiKeyEnvironments)),
    check('webhook_events_status_check', isOneOf(table.status, webhookEventStatuses)),
  ],
);

/** Each delivery attempt, for support and for the customer's own delivery log (docs/decisions.md#delivery-log). */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    eventId: text('event_id')
      .notNull()
      .references(() => webhookEvents.id, { onDelete: 'cascade' }),
    /** The delivery this try belongs to (the event's `deliveries` when it was made). */
    delivery: integer('delivery').notNull().default(1),
    /** The try's number within its delivery, from 1. */
    attempt: integer('attempt').notNull(),
    url: text('url').notNull(),
    responseStatus: integer('response_status'),
    error: text('error'),
    /** The latency: from sending to the answer (or the failure), in milliseconds. */
    durationMs: integer('duration_ms').notNull(),
    outcome: text('outcome', { enum: webhookAttemptOutcomes }).notNull(),
    /** The start of the answer's body, scrubbed when it was received (no control characters, nothing secret-like). */
    responseExcerpt: text('response_excerpt'),
    createdAt: createdAt(),
  },
  (table) => [
    index('webhook_delivery_attempts_event_idx').on(table.eventId, table.attempt),
    check('webhook_delivery_attempts_outcome_check', isOneOf(table.outcome, webhookAttemptOutcomes)),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;
export type WebhookEvent = typeof webhookEvents.$inferSelect;
