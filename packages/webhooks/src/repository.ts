import type { ApiKeyEnvironment, DatabaseExecutor, UnitOfWork, WebhookEndpoint, WebhookEvent } from '@platform/db';
import {
  disabledWebhookTargets,
  webhookDeliveryAttempts,
  webhookEndpoints,
  webhookEvents,
} from '@platform/db/schema/webhooks';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';

// Every statement of the outbox, the delivery worker and the endpoint settings. The functions take the
// executor first.

interface EndpointKey {
  organizationId: string;
  environment: ApiKeyEnvironment;
}

interface TargetKey extends EndpointKey {
  url: string;
}

// ---------------------------------------------------------------------------------------------- outbox

/** An event as the outbox writes it. */
export type NewWebhookEvent = Required<
  Pick<
    typeof webhookEvents.$inferInsert,
    'id' | 'organizationId' | 'environment' | 'type' | 'payload' | 'targetUrl' | 'nextAttemptAt' | 'createdAt'
  >
>;

export async function insertWebhookEvent(db: DatabaseExecutor, event: NewWebhookEvent): Promise<void> {
  await db.insert(webhookEvents).values(event);
}

/** Adds the insert of `event` to the unit of work, sent at its commit. */
export function addWebhookEventInsert(work: UnitOfWork, event: NewWebhookEvent): void {
  work.write(sql`insert into ${webhookEvents}
      (id, organization_id, environment, type, payload, target_url, next_attempt_at, created_at)
    values (${event.id}::text, ${event.organizationId}::uuid, ${event.environment}::text, ${event.type}::text,
      ${JSON.stringify(event.payload)}::jsonb, ${event.targetUrl}::text, ${event.nextAttemptAt.toISOString()}::timestamptz,
      ${event.createdAt.toISOString()}::timestamptz)
    returning id`);
}

// -------------------------------------------------------------------------------------------- delivery

export type ClaimedEvent = Pick<
  WebhookEvent,
  'id' | 'organizationId' | 'environment' | 'payload' | 'targetUrl' | 'attempts' | 'deliveries'
>;

/**
 * Claims up to `batchSize` due events (pending, due at `claimedAt`, not leased by another worker) with
 * `FOR UPDATE SKIP LOCKED`, and leases them until `leaseUntil` in the same statement, so the claim commits
 * before anything is sent.
 */
export function leaseDueEvents(
  db: DatabaseExecutor,
  { claimedAt, leaseUntil, batchSize }: { claimedAt: Date; leaseUntil: Date; batchSize: number },
): Promise<ClaimedEvent[]> {
  const due = db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.status, 'pending'),
        lte(webhookEvents.nextAttemptAt, claimedAt),
        or(isNull(webhookEvents.lockedUntil), lte(webhookEvents.lockedUntil, claimedAt)),
      ),
    )
    .orderBy(asc(webhookEvents.nextAttemptAt), asc(webhookEvents.id))
    .limit(batchSize)
    .for('update', { skipLocked: true });
  return db.update(webhookEvents).set({ lockedUntil: leaseUntil }).where(inArray(webhookEvents.id, due)).returning({
    id: webhookEvents.id,
    organizationId: webhookEvents.organizationId,
    environment: webhookEvents.environment,
    payload: webhookEvents.payload,
    targetUrl: webhookEvents.targetUrl,
    attempts: webhookEvents.attempts,
    deliveries: webhookEvents.deliveries,
  });
}

/**
 * Writes the outcome of a try, only if the event is still pending and leased until `leaseUntil` (still this
 * worker's). False when another worker has it now.
 */
export async function updateLeasedEvent(
  db: DatabaseExecutor,
  { id, leaseUntil }: { id: string; leaseUntil: Date },
  changes: Partial<
    Pick<
      typeof webhookEvents.$inferInsert,
      'status' | 'attempts' | 'lastResponseStatus' | 'lastError' | 'lockedUntil' | 'deliveredAt' | 'nextAttemptAt'
    >
  >,
): Promise<boolean> {
  const updated = await db
    .update(webhookEvents)
    .set(changes)
    .where(
      and(eq(webhookEvents.id, id), eq(webhookEvents.status, 'pending'), eq(webhookEvents.lockedUntil, leaseUntil)),
    )
    .returning({ id: webhookEvents.id });
  return updated.length > 0;
}

export async function insertDeliveryAttempt(
  db: DatabaseExecutor,
  attempt: typeof webhookDeliveryAttempts.$inferInsert,
): Promise<void> {
  await db.insert(webhookDeliveryAttempts).values(attempt);
}

// ---------------------------------------------------------------------------------------- disabled targets

export async function findDisabledTarget(db: DatabaseExecutor, target: TargetKey) {
  const [disabled] = await db
    .select({ reason: disabledWebhookTargets.reason, createdAt: disabledWebhookTargets.createdAt })
    .from(disabledWebhookTargets)
    .where(whereTarget(target));
  return disabled;
}

/** Disables a target; does nothing when it is disabled already. */
export async function insertDisabledTarget(
  db: DatabaseExecutor,
  target: TargetKey & { reason: string; createdAt: Date },
): Promise<void> {
  await db.insert(disabledWebhookTargets).values(target).onConflictDoNothing();
}

export async function deleteDisabledTarget(db: DatabaseExecutor, target: TargetKey): Promise<void> {
  await db.delete(disabledWebhookTargets).where(whereTarget(target));
}

export function listDisabledTargets(db: DatabaseExecutor, organizationId: string) {
  return db
    .select()
    .from(disabledWebhookTargets)
    .where(eq(disabledWebhookTargets.organizationId, organizationId))
    .orderBy(asc(disabledWebhookTargets.createdAt), asc(disabledWebhookTargets.url));
}

function whereTarget(target: TargetKey) {
  return and(
    eq(disabledWebhookTargets.organizationId, target.organizationId),
    eq(disabledWebhookTargets.environment, target.environment),
    eq(disabledWebhookTargets.url, target.url),
  );
}

// ------------------------------------------------------------------------------------------- endpoints

/** Creates the endpoint with this secret; undefined when it exists already (the unique key decides). */
export async function insertEndpointIfMissing(
  db: DatabaseExecutor,
  ref: EndpointKey,
  secret: string,
): Promise<WebhookEndpoint | undefined> {
  const [created] = await db
    .insert(webhookEndpoints)
    .values({ organizationId: ref.organizationId, environment: ref.environment, secret })
    .onConflictDoNothing({ target: [webhookEndpoints.organizationId, webhookEndpoints.environment] })
    .returning();
  return created;
}

export async function findEndpoint(db: DatabaseExecutor, ref: EndpointKey): Promise<WebhookEndpoint | undefined> {
  const [existing] = await db.select().from(webhookEndpoints).where(whereEndpoint(ref));
  return existing;
}

/** Marks the secret revealed if it was not; the secret when this call did it. */
export async function markSecretRevealed(
  db: DatabaseExecutor,
  ref: EndpointKey & { now: Date },
): Promise<{ secret: string } | undefined> {
  const [revealed] = await db
    .update(webhookEndpoints)
    .set({ secretRevealedAt: ref.now, updatedAt: ref.now })
    .where(and(whereEndpoint(ref), isNull(webhookEndpoints.secretRevealedAt)))
    .returning({ secret: webhookEndpoints.secret });
  return revealed;
}

/** Replaces the secret; the one replaced becomes the previous secret. False when there is no endpoint. */
export async function replaceSecret(
  db: DatabaseExecutor,
  ref: EndpointKey & { now: Date; secret: string; previousSecretExpiresAt: Date },
): Promise<boolean> {
  // In SET, column references read the row as it was, so previous_secret receives the secret being replaced.
  const [rotated] = await db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: ref.previousSecretExpiresAt,
      secret: ref.secret,
      secretRevealedAt: ref.now,
      updatedAt: ref.now,
    })
    .where(whereEndpoint(ref))
    .returning({ id: webhookEndpoints.id });
  return rotated !== undefined;
}

export async function updateDefaultUrl(
  db: DatabaseExecutor,
  ref: EndpointKey & { defaultUrl: string | null; now: Date },
): Promise<void> {
  await db.update(webhookEndpoints).set({ defaultUrl: ref.defaultUrl, updatedAt: ref.now }).where(whereEndpoint(ref));
}

/** Both environments' settings of an organization, without secrets. */
export function listEndpointSettings(db: DatabaseExecutor, organizationId: string) {
  return db
    .select({
      environment: webhookEndpoints.environment,
      defaultUrl: webhookEndpoints.defaultUrl,
      secretRevealedAt: webhookEndpoints.secretRevealedAt,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.organizationId, organizationId));
}

function whereEndpoint(ref: EndpointKey) {
  return and(
    eq(webhookEndpoints.organizationId, ref.organizationId),
    eq(webhookEndpoints.environment, ref.environment),
  );
}
