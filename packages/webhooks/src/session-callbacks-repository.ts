import type { DatabaseExecutor, WebhookAttemptOutcome, WebhookEventStatus } from '@platform/db';
import { webhookDeliveryAttempts, webhookEvents } from '@platform/db/schema/webhooks';
import { and, asc, eq, sql } from 'drizzle-orm';

// The callbacks sent for one verification session, with their delivery attempts, for the session's timeline on
// main-api (docs/decisions.md#organization-session-list). Read only: how events are written and delivered is the
// outbox's and the worker's (repository.ts).

/** An attempt to deliver a callback, as recorded: never its URL, headers or the error's words. */
export interface SessionCallbackAttempt {
  /** The delivery the try belongs to: 1, then one more per redelivery (docs/decisions.md#redelivery). */
  delivery: number;
  /** The try's number within its delivery, from 1. */
  attempt: number;
  at: Date;
  /** The HTTP status the target answered; null when it did not answer (refused, timed out, unreachable). */
  responseStatus: number | null;
  durationMs: number;
  /** As the worker recorded it: delivered (2xx), retrying (another try is scheduled) or failed (given up). */
  outcome: WebhookAttemptOutcome;
}

export interface SessionCallback {
  /** The event's id, its `webhook-id` header. */
  eventId: string;
  /** `verification_session.<status>`. */
  type: string;
  status: WebhookEventStatus;
  createdAt: Date;
  deliveredAt: Date | null;
  attempts: SessionCallbackAttempt[];
}

/**
 * The organization's callbacks about session `sessionId`, oldest first, each with its attempts in order; one
 * statement, on webhook_events_session_idx (the session's events) and webhook_delivery_attempts_event_idx.
 */
export async function listSessionCallbacks(db: DatabaseExecutor, target: SessionRef): Promise<SessionCallback[]> {
  const rows = await sessionCallbacksQuery(db, target);
  const callbacks = new Map<string, SessionCallback>();
  for (const row of rows) {
    let callback = callbacks.get(row.eventId);
    if (callback === undefined) {
      callback = {
        eventId: row.eventId,
        type: row.type,
        status: row.status,
        createdAt: row.createdAt,
        deliveredAt: row.deliveredAt,
        attempts: [],
      };
      callbacks.set(row.eventId, callback);
    }
    if (
      row.delivery !== null &&
      row.attempt !== null &&
      row.attemptAt !== null &&
      row.durationMs !== null &&
      row.outcome !== null
    ) {
      callback.attempts.push({
        delivery: row.delivery,
        attempt: row.attempt,
        at: row.attemptAt,
        responseStatus: row.responseStatus,
        durationMs: row.durationMs,
        outcome: row.outcome,
      });
    }
  }
  return [...callbacks.values()];
}

interface SessionRef {
  organizationId: string;
  sessionId: string;
}

/** The statement of listSessionCallbacks, not yet sent (session-callbacks.test.ts reads its plan). */
export function sessionCallbacksQuery(db: DatabaseExecutor, { organizationId, sessionId }: SessionRef) {
  return db
    .select({
      eventId: webhookEvents.id,
      type: webhookEvents.type,
      status: webhookEvents.status,
      createdAt: webhookEvents.createdAt,
      deliveredAt: webhookEvents.deliveredAt,
      delivery: webhookDeliveryAttempts.delivery,
      attempt: webhookDeliveryAttempts.attempt,
      attemptAt: webhookDeliveryAttempts.createdAt,
      responseStatus: webhookDeliveryAttempts.responseStatus,
      durationMs: webhookDeliveryAttempts.durationMs,
      outcome: webhookDeliveryAttempts.outcome,
    })
    .from(webhookEvents)
    .leftJoin(webhookDeliveryAttempts, eq(webhookDeliveryAttempts.eventId, webhookEvents.id))
    .where(
      and(
        eq(webhookEvents.organizationId, organizationId),
        // The partial index's own condition and expression, so the planner uses it.
        sql`${webhookEvents.type} like 'verification_session.%'`,
        sql`(${webhookEvents.payload} #>> '{data,sessionId}') = ${sessionId}::text`,
      ),
    )
    .orderBy(
      asc(webhookEvents.createdAt),
      asc(webhookEvents.id),
      asc(webhookDeliveryAttempts.delivery),
      asc(webhookDeliveryAttempts.attempt),
    );
}
