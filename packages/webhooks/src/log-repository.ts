import type { ApiKeyEnvironment, DatabaseExecutor, WebhookEvent } from '@platform/db';
import { webhookDeliveryAttempts, webhookEvents } from '@platform/db/schema/webhooks';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, or, type SQL, sql } from 'drizzle-orm';

// The statements of the delivery log and of redelivery (delivery-log.ts); the outbox's and the worker's are in
// repository.ts. The functions take the executor first.

/** What an event's delivery has come to, as the log filters it (docs/decisions.md#delivery-log). */
export type WebhookEventOutcome = 'pending' | 'retrying' | 'delivered' | 'failed';

export interface WebhookLogQuery {
  organizationId: string;
  environment: ApiKeyEnvironment | undefined;
  type: string | undefined;
  outcome: WebhookEventOutcome | undefined;
  /** Events created at or after this time. */
  from: Date | undefined;
  /** Events created before this time. */
  to: Date | undefined;
  /** Only the events after this position (a decoded cursor). */
  after: PagePosition | undefined;
  limit: number;
}

export type WebhookDeliveryAttempt = typeof webhookDeliveryAttempts.$inferSelect;

function outcomeCondition(outcome: WebhookEventOutcome): SQL | undefined {
  switch (outcome) {
    case 'delivered':
    case 'failed':
      return eq(webhookEvents.status, outcome);
    case 'retrying':
      return and(eq(webhookEvents.status, 'pending'), gt(webhookEvents.attempts, 0));
    case 'pending':
      return and(eq(webhookEvents.status, 'pending'), eq(webhookEvents.attempts, 0));
  }
}

/**
 * Up to `limit` of the organization's events, newest first by (created_at, id), each with its position for the next
 * page's cursor (served by webhook_events_organization_idx).
 */
export function listLogEvents(
  db: DatabaseExecutor,
  { organizationId, environment, type, outcome, from, to, after, limit }: WebhookLogQuery,
): Promise<Array<{ event: WebhookEvent; position: string }>> {
  const conditions: Array<SQL | undefined> = [eq(webhookEvents.organizationId, organizationId)];
  if (environment !== undefined) conditions.push(eq(webhookEvents.environment, environment));
  if (type !== undefined) conditions.push(eq(webhookEvents.type, type));
  if (outcome !== undefined) conditions.push(outcomeCondition(outcome));
  if (from !== undefined) conditions.push(gte(webhookEvents.createdAt, from));
  if (to !== undefined) conditions.push(lt(webhookEvents.createdAt, to));
  if (after !== undefined) conditions.push(afterPosition(webhookEvents, after, 'text'));
  return db
    .select({ event: webhookEvents, position: cursorTimeOf(webhookEvents.createdAt) })
    .from(webhookEvents)
    .where(and(...conditions))
    .orderBy(desc(webhookEvents.createdAt), desc(webhookEvents.id))
    .limit(limit);
}

/** The latest try of each of these events (none for an event never tried). */
export function listLatestAttempts(db: DatabaseExecutor, eventIds: string[]): Promise<WebhookDeliveryAttempt[]> {
  if (eventIds.length === 0) return Promise.resolve([]);
  return db
    .selectDistinctOn([webhookDeliveryAttempts.eventId])
    .from(webhookDeliveryAttempts)
    .where(inArray(webhookDeliveryAttempts.eventId, eventIds))
    .orderBy(
      asc(webhookDeliveryAttempts.eventId),
      desc(webhookDeliveryAttempts.delivery),
      desc(webhookDeliveryAttempts.attempt),
      desc(webhookDeliveryAttempts.createdAt),
    );
}

/** The event, when it is the organization's; another organization's is not found, like one that does not exist. */
export async function findLogEvent(
  db: DatabaseExecutor,
  organizationId: string,
  eventId: string,
): Promise<WebhookEvent | undefined> {
  const [event] = await db
    .select()
    .from(webhookEvents)
    .where(and(eq(webhookEvents.id, eventId), eq(webhookEvents.organizationId, organizationId)));
  return event;
}

/** Every try of the event, in the order they were made. */
export function listEventAttempts(db: DatabaseExecutor, eventId: string): Promise<WebhookDeliveryAttempt[]> {
  return db
    .select()
    .from(webhookDeliveryAttempts)
    .where(eq(webhookDeliveryAttempts.eventId, eventId))
    .orderBy(
      asc(webhookDeliveryAttempts.delivery),
      asc(webhookDeliveryAttempts.attempt),
      asc(webhookDeliveryAttempts.createdAt),
    );
}

interface EventKey {
  organizationId: string;
  eventId: string;
  now: Date;
}

/**
 * Starts a new delivery of a finished (delivered or failed) event: due now, its tries counted from 0 again, its
 * delivery number one more. One conditional UPDATE: of two at once, the second waits for the first's row lock, then
 * finds the event pending and changes nothing (docs/decisions.md#redelivery). The event when this call started it.
 */
export async function startNewDelivery(db: DatabaseExecutor, key: EventKey): Promise<WebhookEvent | undefined> {
  const [event] = await db
    .update(webhookEvents)
    .set({
      status: 'pending',
      attempts: 0,
      deliveries: sql`${webhookEvents.deliveries} + 1`,
      nextAttemptAt: key.now,
      lockedUntil: null,
      lastResponseStatus: null,
      lastError: null,
      deliveredAt: null,
    })
    .where(
      and(
        eq(webhookEvents.id, key.eventId),
        eq(webhookEvents.organizationId, key.organizationId),
        inArray(webhookEvents.status, ['delivered', 'failed']),
      ),
    )
    .returning();
  return event;
}

/**
 * Makes a pending event's next try due now, when it is later and no worker is sending it (a worker's lease is left
 * alone: its result is written only while the lease is unchanged). The event when it was moved.
 */
export async function hurryPendingEvent(db: DatabaseExecutor, key: EventKey): Promise<WebhookEvent | undefined> {
  const [event] = await db
    .update(webhookEvents)
    .set({ nextAttemptAt: key.now })
    .where(
      and(
        eq(webhookEvents.id, key.eventId),
        eq(webhookEvents.organizationId, key.organizationId),
        eq(webhookEvents.status, 'pending'),
        gt(webhookEvents.nextAttemptAt, key.now),
        or(isNull(webhookEvents.lockedUntil), lte(webhookEvents.lockedUntil, key.now)),
      ),
    )
    .returning();
  return event;
}
