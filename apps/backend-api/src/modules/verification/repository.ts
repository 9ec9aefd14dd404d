import type {
  ApiKeyEnvironment,
  ApiKeyOwner,
  DatabaseExecutor,
  NewVerificationSession,
  VerificationSession,
  VerificationStatus,
  VerificationType,
} from '@platform/db';
import { verificationPrices, verificationSessions, verificationSessionTransitions } from '@platform/db/schema';
import { afterPosition, cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, asc, count, desc, eq, inArray, lte, notInArray, type SQL, sql } from 'drizzle-orm';

// The queries of verification sessions, their transitions and prices. A query given an owner sees only the
// sessions of that organization and environment (docs/decisions.md#folders-per-environment).

const ownedBy = (owner: ApiKeyOwner | undefined) =>
  owner &&
  and(
    eq(verificationSessions.organizationId, owner.organizationId),
    eq(verificationSessions.environment, owner.environment),
  );

/** The organization's own price of a verification type, when it has one. */
export async function findPriceOverride(
  db: DatabaseExecutor,
  organizationId: string,
  type: VerificationType,
): Promise<number | undefined> {
  const [override] = await db
    .select({ price: verificationPrices.price })
    .from(verificationPrices)
    .where(and(eq(verificationPrices.organizationId, organizationId), eq(verificationPrices.type, type)));
  return override?.price;
}

export async function insertSession(
  tx: DatabaseExecutor,
  values: NewVerificationSession,
): Promise<VerificationSession> {
  const [session] = await tx.insert(verificationSessions).values(values).returning();
  if (session === undefined) throw new Error('Inserting the verification session returned no row');
  return session;
}

export interface SessionListQuery {
  status: VerificationStatus | undefined;
  externalEndUserId: string | undefined;
  /** Only the sessions after this position (a decoded cursor). */
  after: PagePosition | undefined;
  limit: number;
}

/** Up to `limit` of the owner's sessions newest first, each with its position for the next page's cursor. */
export function listSessionRows(
  db: DatabaseExecutor,
  owner: ApiKeyOwner,
  { status, externalEndUserId, after, limit }: SessionListQuery,
): Promise<Array<{ session: VerificationSession; position: string }>> {
  const conditions: Array<SQL | undefined> = [ownedBy(owner)];
  if (status !== undefined) conditions.push(eq(verificationSessions.status, status));
  if (externalEndUserId !== undefined) conditions.push(eq(verificationSessions.externalEndUserId, externalEndUserId));
  if (after !== undefined) conditions.push(afterPosition(verificationSessions, after));
  return db
    .select({ session: verificationSessions, position: cursorTimeOf(verificationSessions.createdAt) })
    .from(verificationSessions)
    .where(and(...conditions))
    .orderBy(desc(verificationSessions.createdAt), desc(verificationSessions.id))
    .limit(limit);
}

/**
 * Locks the session in one of `statuses` that has been due longest at `now`, passing over the ids in `skip` and
 * the sessions other transactions hold (FOR UPDATE SKIP LOCKED); its id, or undefined when none is left.
 */
export async function claimDueSession(
  tx: DatabaseExecutor,
  { statuses, now, skip }: { statuses: readonly VerificationStatus[]; now: Date; skip: ReadonlySet<string> },
): Promise<string | undefined> {
  const [due] = await tx
    .select({ id: verificationSessions.id })
    .from(verificationSessions)
    .where(
      and(
        inArray(verificationSessions.status, [...statuses]),
        lte(verificationSessions.expiresAt, now),
        skip.size > 0 ? notInArray(verificationSessions.id, [...skip]) : undefined,
      ),
    )
    .orderBy(asc(verificationSessions.expiresAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return due?.id;
}

/** The number of sessions of each environment, type and status (groups without a session are left out). */
export function countSessionsByStatus(
  db: DatabaseExecutor,
): Promise<
  Array<{ environment: ApiKeyEnvironment; type: VerificationType; status: VerificationStatus; sessions: number }>
> {
  return db
    .select({
      environment: verificationSessions.environment,
      type: verificationSessions.type,
      status: verificationSessions.status,
      sessions: count(),
    })
    .from(verificationSessions)
    .groupBy(verificationSessions.environment, verificationSessions.type, verificationSessions.status);
}

/**
 * The review queue of each environment and type: sessions in `processing` that a person decides, and when the one
 * waiting longest was submitted (its move to `processing` when it has no submitted_at), in epoch seconds.
 */
export function reviewQueueByType(
  db: DatabaseExecutor,
): Promise<
  Array<{ environment: ApiKeyEnvironment; type: VerificationType; depth: number; oldestSince: number | null }>
> {
  const movedToProcessing = sql`(select max(${verificationSessionTransitions.createdAt}) from ${verificationSessionTransitions}
    where ${verificationSessionTransitions.sessionId} = ${verificationSessions.id}
    and ${verificationSessionTransitions.toStatus} = 'processing')`;
  return db
    .select({
      environment: verificationSessions.environment,
      type: verificationSessions.type,
      depth: count(),
      oldestSince: sql<
        number | null
      >`extract(epoch from min(coalesce(${verificationSessions.submittedAt}, ${movedToProcessing})))`.mapWith(Number),
    })
    .from(verificationSessions)
    .where(and(eq(verificationSessions.status, 'processing'), eq(verificationSessions.decisionSource, 'manual')))
    .groupBy(verificationSessions.environment, verificationSessions.type);
}
