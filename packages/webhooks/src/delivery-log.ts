import type { ApiKeyEnvironment, DatabaseExecutor, WebhookEvent } from '@platform/db';
import {
  findLogEvent,
  hurryPendingEvent,
  listEventAttempts,
  listLatestAttempts,
  listLogEvents,
  startNewDelivery,
  type WebhookDeliveryAttempt,
  type WebhookEventOutcome,
  type WebhookLogQuery,
} from './log-repository.js';
import { enqueueWebhookEvent } from './outbox.js';
import { findEndpoint } from './repository.js';

// The organization's delivery log, redelivery and test events (docs/decisions.md#delivery-log,
// docs/decisions.md#redelivery, docs/decisions.md#test-events). The worker (delivery.ts) writes what the log reads.

export type { WebhookDeliveryAttempt, WebhookEventOutcome, WebhookLogQuery };

export const webhookEventOutcomes: readonly WebhookEventOutcome[] = ['pending', 'retrying', 'delivered', 'failed'];

/** The type of the event a member sends to try an endpoint, named like the others (`<object>.<what>`). */
export const TEST_EVENT_TYPE = 'webhook.test';

const WEBHOOK_EVENT_ID = /^msg_[0-9A-Za-z]{27}$/u;

/** Whether `id` has the shape of an event id (`msg_` + 27 base62 characters); the log's cursors hold one. */
export function isWebhookEventId(id: string): boolean {
  return WEBHOOK_EVENT_ID.test(id);
}

/** What the event's current delivery has come to: not tried yet, failed and retrying, delivered, failed for good. */
export function outcomeOf(event: Pick<WebhookEvent, 'status' | 'attempts'>): WebhookEventOutcome {
  if (event.status === 'pending') return event.attempts === 0 ? 'pending' : 'retrying';
  return event.status;
}

export interface WebhookLogEntry {
  event: WebhookEvent;
  /** The event's position in the log, for the cursor of the next page. */
  position: string;
  /** Its latest try, of any delivery; null when it was never tried. */
  lastAttempt: WebhookDeliveryAttempt | null;
}

/** A page of the organization's events, newest first (`limit` rows: ask one more to learn whether there is more). */
export async function listWebhookLog(db: DatabaseExecutor, query: WebhookLogQuery): Promise<WebhookLogEntry[]> {
  const rows = await listLogEvents(db, query);
  const latest = await listLatestAttempts(
    db,
    rows.map((row) => row.event.id),
  );
  const byEvent = new Map(latest.map((attempt) => [attempt.eventId, attempt]));
  return rows.map((row) => ({ ...row, lastAttempt: byEvent.get(row.event.id) ?? null }));
}

/** One of the organization's events with every try of every delivery, oldest first; null when it is not theirs. */
export async function getWebhookLogEvent(
  db: DatabaseExecutor,
  organizationId: string,
  eventId: string,
): Promise<{ event: WebhookEvent; attempts: WebhookDeliveryAttempt[] } | null> {
  const event = await findLogEvent(db, organizationId, eventId);
  if (event === undefined) return null;
  return { event, attempts: await listEventAttempts(db, eventId) };
}

export interface Redelivery {
  /** `scheduled`: this call started a new delivery; `already_scheduled`: the event was being delivered already. */
  result: 'scheduled' | 'already_scheduled';
  event: WebhookEvent;
}

/**
 * Delivers the event again, with the same id and body, to where it goes now (its session's callbackUrl, or the
 * environment's default URL as it is when the worker sends it). A delivered or failed event gets a new delivery,
 * due at once; a pending one is not delivered twice, its next try is only made due now. So a double click, even
 * two requests at once, schedules one delivery. Null when the event is not the organization's.
 */
export async function redeliverWebhookEvent(
  db: DatabaseExecutor,
  input: { organizationId: string; eventId: string; now: Date },
): Promise<Redelivery | null> {
  const started = await startNewDelivery(db, input);
  if (started !== undefined) return { result: 'scheduled', event: started };
  const hurried = await hurryPendingEvent(db, input);
  if (hurried !== undefined) return { result: 'already_scheduled', event: hurried };
  const event = await findLogEvent(db, input.organizationId, input.eventId);
  if (event === undefined) return null;
  // Pending and due, or being sent right now (or just sent, by the delivery another request started): nothing to do.
  return { result: 'already_scheduled', event };
}

/**
 * Writes a `webhook.test` event to the outbox for the environment's default URL, as it is when the worker sends it:
 * signed, retried and logged like every event. Null when the environment has no default URL (it would go nowhere).
 */
export async function sendTestWebhookEvent(
  db: DatabaseExecutor,
  input: { organizationId: string; environment: ApiKeyEnvironment; now: Date },
): Promise<{ id: string } | null> {
  const endpoint = await findEndpoint(db, input);
  if (endpoint?.defaultUrl == null) return null;
  return enqueueWebhookEvent(db, {
    organizationId: input.organizationId,
    environment: input.environment,
    type: TEST_EVENT_TYPE,
    data: {
      environment: input.environment,
      message: 'A test event, sent from the webhook settings to check that this endpoint receives and verifies events.',
    },
    targetUrl: null,
    now: input.now,
  });
}
