import type { ApiKeyEnvironment, Database, WebhookEvent } from '@platform/db';
import { conflict, invalidFields, notFound } from '@platform/errors';
import { readStorableDateTime } from '@platform/http';
import { decodeCursor, pageOf } from '@platform/pagination';
import {
  getWebhookLogEvent,
  isWebhookEventId,
  listWebhookLog,
  outcomeOf,
  redeliverWebhookEvent,
  sendTestWebhookEvent,
  TEST_EVENT_TYPE,
  type WebhookDeliveryAttempt,
  type WebhookEventBody,
  type WebhookEventOutcome,
} from '@platform/webhooks';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import type { WebhookAttemptView, WebhookEventDetailView, WebhookLogEventView } from './schemas.js';

export const EVENT_NOT_FOUND = 'Webhook event not found';
export const NO_DEFAULT_URL = (environment: ApiKeyEnvironment) =>
  `The ${environment} environment has no default callback URL: set one with PUT /v1/webhooks/endpoints/${environment} first`;

export interface WebhookEventFilter {
  environment: ApiKeyEnvironment | undefined;
  type: string | undefined;
  outcome: WebhookEventOutcome | undefined;
  /** Date-times with a time zone, checked by the route's schema (docs/decisions.md#dates-are-storable). */
  from: string | undefined;
  to: string | undefined;
  limit: number;
  cursor: string | undefined;
}

/**
 * A page of the organization's delivery log, newest first, with the cursor of the next page (null on the last one).
 * 400 when `from` is after `to`, or for a cursor this API did not return.
 */
export async function listWebhookEvents(
  db: Database,
  organizationId: string,
  { environment, type, outcome, from, to, limit, cursor }: WebhookEventFilter,
): Promise<{ events: WebhookLogEventView[]; nextCursor: string | null }> {
  const fromTime = from === undefined ? undefined : readStorableDateTime(from);
  const toTime = to === undefined ? undefined : readStorableDateTime(to);
  if (fromTime !== undefined && toTime !== undefined && fromTime.getTime() > toTime.getTime()) {
    throw invalidFields([{ path: 'querystring/from', message: 'must not be after to' }]);
  }
  const rows = await listWebhookLog(db, {
    organizationId,
    environment,
    type,
    outcome,
    from: fromTime,
    to: toTime,
    after: cursor === undefined ? undefined : decodeCursor(cursor, isWebhookEventId),
    limit: limit + 1,
  });
  const { page, nextCursor } = pageOf(rows, limit, (row) => ({ createdAt: row.position, id: row.event.id }));
  return {
    events: page.map((row) => ({
      ...eventFields(row.event),
      lastAttempt: row.lastAttempt === null ? null : attemptView(row.lastAttempt),
    })),
    nextCursor,
  };
}

/** One event with every try; another organization's is the same 404 as one that does not exist. */
export async function getWebhookEvent(
  db: Database,
  organizationId: string,
  eventId: string,
): Promise<WebhookEventDetailView> {
  const logged = await getWebhookLogEvent(db, organizationId, eventId);
  if (logged === null) throw notFound(EVENT_NOT_FOUND);
  return detailView(logged.event, logged.attempts);
}

/**
 * Delivers the event again (docs/decisions.md#redelivery), recorded in the audit log when it starts a new delivery.
 * The transaction holds the event's row lock until the audit record is written, so a simultaneous second request
 * waits, then finds the delivery scheduled and adds none.
 */
export async function redeliverEvent(
  db: Database,
  { organizationId, eventId, now, audit }: { organizationId: string; eventId: string; now: Date; audit: AuditContext },
): Promise<{ result: 'scheduled' | 'already_scheduled'; event: WebhookEventDetailView }> {
  const redelivery = await db.transaction(async (tx) => {
    const done = await redeliverWebhookEvent(tx, { organizationId, eventId, now });
    if (done?.result === 'scheduled') {
      await recordAuditEvent(tx, audit, {
        organizationId,
        action: 'webhook_event.redelivered',
        targetType: 'webhook_event',
        targetId: eventId,
        details: { environment: done.event.environment, type: done.event.type, delivery: done.event.deliveries },
      });
    }
    return done;
  });
  if (redelivery === null) throw notFound(EVENT_NOT_FOUND);
  const logged = await getWebhookLogEvent(db, organizationId, eventId);
  return { result: redelivery.result, event: detailView(redelivery.event, logged?.attempts ?? []) };
}

/** Writes a `webhook.test` event for the environment's default URL (docs/decisions.md#test-events); 409 without one. */
export async function sendTestEvent(
  db: Database,
  {
    organizationId,
    environment,
    now,
    audit,
  }: { organizationId: string; environment: ApiKeyEnvironment; now: Date; audit: AuditContext },
): Promise<{ eventId: string; type: typeof TEST_EVENT_TYPE; environment: ApiKeyEnvironment }> {
  const sent = await db.transaction(async (tx) => {
    const event = await sendTestWebhookEvent(tx, { organizationId, environment, now });
    if (event === null) return null;
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: 'webhook_event.test_sent',
      targetType: 'webhook_event',
      targetId: event.id,
      details: { environment },
    });
    return event;
  });
  if (sent === null) throw conflict(NO_DEFAULT_URL(environment));
  return { eventId: sent.id, type: TEST_EVENT_TYPE, environment };
}

function eventFields(event: WebhookEvent): Omit<WebhookLogEventView, 'lastAttempt'> {
  const outcome = outcomeOf(event);
  const waiting = outcome === 'pending' || outcome === 'retrying';
  return {
    id: event.id,
    type: event.type,
    environment: event.environment,
    outcome,
    deliveries: event.deliveries,
    attemptCount: event.attempts,
    createdAt: event.createdAt.toISOString(),
    nextAttemptAt: waiting ? event.nextAttemptAt.toISOString() : null,
    deliveredAt: event.deliveredAt?.toISOString() ?? null,
    lastStatusCode: event.lastResponseStatus,
    lastError: event.lastError === null ? null : withoutQueryStrings(event.lastError),
  };
}

function detailView(event: WebhookEvent, attempts: WebhookDeliveryAttempt[]): WebhookEventDetailView {
  const body = event.payload as WebhookEventBody;
  return {
    ...eventFields(event),
    body: { id: body.id, type: body.type, timestamp: body.timestamp, data: body.data },
    attempts: attempts.map(attemptView),
  };
}

function attemptView(attempt: WebhookDeliveryAttempt): WebhookAttemptView {
  return {
    delivery: attempt.delivery,
    attempt: attempt.attempt,
    at: attempt.createdAt.toISOString(),
    url: withoutQueryStrings(attempt.url),
    statusCode: attempt.responseStatus,
    latencyMs: attempt.durationMs,
    outcome: attempt.outcome,
    error: attempt.error === null ? null : withoutQueryStrings(attempt.error),
    responseExcerpt: attempt.responseExcerpt,
  };
}

/**
 * URLs as the log shows them, in a URL field or inside a message: scheme, host and path. The query string and the
 * fragment are left out, since a receiver may take a token there (like the audit log, docs/decisions.md#delivery-log).
 */
function withoutQueryStrings(text: string): string {
  return text.replace(/(https?:\/\/[^\s?#]+)[?#][^\s)]*/giu, '$1');
}
