import {
  columnsOf,
  type DatabaseExecutor,
  queryRows,
  tableRowOf,
  type UnitOfWork,
  type VerificationDocument,
  type VerificationReviewClaim,
  type VerificationSession,
  type VerificationSessionTransition,
} from '@platform/db';
import {
  verificationDocuments,
  verificationSessions,
  verificationSessionTransitions,
} from '@platform/db/schema/verification';
import { verificationReviewClaims } from '@platform/db/schema/verification-review-claims';
import { organizationNameOf } from '@platform/organizations';
import { cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, asc, eq, gt, isNull, type SQL, sql } from 'drizzle-orm';

// The queries of manual review (docs/decisions.md#manual-review): the queue, one session with its claim, its
// documents and history, and the claims themselves. main-api's reviews module runs them through this package's
// index.ts: the sessions are backend-api's verification module's, published to main-api here, and the claims, which
// the queue joins, are this package's (docs/decisions.md#one-owner-per-table). Status changes go through lifecycle.ts.

/**
 * Waiting for a person: submitted, and decided by a reviewer rather than the sandbox. The partial index
 * verification_sessions_review_queue_idx holds exactly these rows, so the queue query reads the queue alone.
 */
const waitingForReview = and(
  eq(verificationSessions.status, 'processing'),
  eq(verificationSessions.decisionSource, 'manual'),
);

/**
 * When a session joined the queue: its submission, or its creation for a session moved to processing before
 * submissions were recorded (migration 0012), which has no submitted_at.
 */
const queuedAt = sql<Date>`coalesce(${verificationSessions.submittedAt}, ${verificationSessions.createdAt})`.mapWith(
  verificationSessions.createdAt,
);

/** A claim that still holds at `now` joins its session; an expired one reads as none. */
const liveClaimAt = (now: Date) =>
  and(eq(verificationReviewClaims.sessionId, verificationSessions.id), gt(verificationReviewClaims.expiresAt, now));

/** The customer organization a session belongs to, named for the reviewer (docs/decisions.md#the-review-queue). */
export interface ReviewedOrganization {
  id: string;
  name: string;
}

export interface QueueRow {
  session: Pick<VerificationSession, 'id' | 'type' | 'environment' | 'appName'>;
  organization: ReviewedOrganization;
  queuedAt: Date;
  /** queuedAt as the cursor holds it (microseconds). */
  position: string;
  claim: Pick<VerificationReviewClaim, 'reviewerId' | 'expiresAt'> | null;
}

/**
 * Up to `limit` sessions waiting for review, oldest first by (queued time, id), after `after` when given. Sorted by
 * the queued time rather than read in the index's order: the coalesce costs a sort, of the queue only.
 */
export async function listQueueRows(
  db: DatabaseExecutor,
  { after, limit, now }: { after: PagePosition | undefined; limit: number; now: Date },
): Promise<QueueRow[]> {
  const conditions: Array<SQL | undefined> = [waitingForReview];
  if (after !== undefined) {
    conditions.push(
      sql`(${queuedAt}, ${verificationSessions.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`,
    );
  }
  const rows = await db
    .select({
      id: verificationSessions.id,
      type: verificationSessions.type,
      environment: verificationSessions.environment,
      appName: verificationSessions.appName,
      organizationId: verificationSessions.organizationId,
      organizationName: organizationNameOf(verificationSessions.organizationId),
      queuedAt,
      position: cursorTimeOf(queuedAt),
      reviewerId: verificationReviewClaims.reviewerId,
      claimExpiresAt: verificationReviewClaims.expiresAt,
    })
    .from(verificationSessions)
    .leftJoin(verificationReviewClaims, liveClaimAt(now))
    .where(and(...conditions))
    .orderBy(asc(queuedAt), asc(verificationSessions.id))
    .limit(limit);
  return rows.map((row) => ({
    session: { id: row.id, type: row.type, environment: row.environment, appName: row.appName },
    organization: { id: row.organizationId, name: row.organizationName },
    queuedAt: row.queuedAt,
    position: row.position,
    claim:
      row.reviewerId === null || row.claimExpiresAt === null
        ? null
        : { reviewerId: row.reviewerId, expiresAt: row.claimExpiresAt },
  }));
}

export interface ReviewSessionRow {
  session: VerificationSession;
  /** The claim that holds at `now`, if any. */
  claim: VerificationReviewClaim | null;
}

/**
 * The session with this id when a reviewer decides it (decision_source manual), whatever its status, with its live
 * claim; undefined for an unknown id or a session the sandbox decides. A named prepared statement (`queryRows`), also
 * inside the decision's transaction: built and parsed once, not on every decision.
 */
export async function findManualSession(
  db: DatabaseExecutor,
  sessionId: string,
  now: Date,
): Promise<ReviewSessionRow | undefined> {
  const [row] = await queryRows(
    db,
    sql`select ${columnsOf(verificationSessions, 'sessions')},
        claims.reviewer_id as claim_reviewer_id, claims.claimed_at as claim_claimed_at,
        claims.expires_at as claim_expires_at
      from ${verificationSessions} sessions
      left join ${verificationReviewClaims} claims
        on claims.session_id = sessions.id and claims.expires_at > ${now.toISOString()}::timestamptz
      where sessions.id = ${sessionId}::uuid and sessions.decision_source = 'manual'`,
  );
  if (row === undefined) return undefined;
  const claim =
    row['claim_reviewer_id'] === null
      ? null
      : tableRowOf(verificationReviewClaims, {
          session_id: row['id'],
          reviewer_id: row['claim_reviewer_id'],
          claimed_at: row['claim_claimed_at'],
          expires_at: row['claim_expires_at'],
        });
  return { session: tableRowOf(verificationSessions, row), claim };
}

const current = and(isNull(verificationDocuments.supersededAt), isNull(verificationDocuments.erasedAt));

/** The session's documents that count (neither replaced nor erased), oldest first. */
export function listCurrentDocuments(db: DatabaseExecutor, sessionId: string): Promise<VerificationDocument[]> {
  return db
    .select()
    .from(verificationDocuments)
    .where(and(eq(verificationDocuments.sessionId, sessionId), current))
    .orderBy(asc(verificationDocuments.createdAt), asc(verificationDocuments.kind), asc(verificationDocuments.id));
}

/** One of the session's current documents, or undefined (unknown, another session's, replaced or erased). */
export async function findCurrentDocument(
  db: DatabaseExecutor,
  sessionId: string,
  documentId: string,
): Promise<VerificationDocument | undefined> {
  const [document] = await db
    .select()
    .from(verificationDocuments)
    .where(and(eq(verificationDocuments.id, documentId), eq(verificationDocuments.sessionId, sessionId), current));
  return document;
}

/** The session's status changes, oldest first. */
export function listTransitions(db: DatabaseExecutor, sessionId: string): Promise<VerificationSessionTransition[]> {
  return db
    .select()
    .from(verificationSessionTransitions)
    .where(eq(verificationSessionTransitions.sessionId, sessionId))
    .orderBy(asc(verificationSessionTransitions.createdAt), asc(verificationSessionTransitions.id));
}

/**
 * Claims the session for `reviewerId` until `expiresAt`: inserts the claim, or takes the existing one over when it
 * has expired or is the same reviewer's (which renews it). Undefined when another reviewer's claim still holds. The
 * conflict locks the claim's row, so of two reviewers claiming at once the second waits for the first's commit and
 * then sees its claim.
 */
export async function claimSession(
  tx: DatabaseExecutor,
  claim: { sessionId: string; reviewerId: string; claimedAt: Date; expiresAt: Date },
): Promise<VerificationReviewClaim | undefined> {
  // A named prepared statement (`queryRows`), as findManualSession.
  const [row] = await queryRows(
    tx,
    sql`insert into ${verificationReviewClaims} (session_id, reviewer_id, claimed_at, expires_at)
      values (${claim.sessionId}::uuid, ${claim.reviewerId}::text, ${claim.claimedAt.toISOString()}::timestamptz,
        ${claim.expiresAt.toISOString()}::timestamptz)
      on conflict (session_id) do update
        set reviewer_id = excluded.reviewer_id, claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
        where ${verificationReviewClaims}.expires_at <= excluded.claimed_at
          or ${verificationReviewClaims}.reviewer_id = excluded.reviewer_id
      returning ${columnsOf(verificationReviewClaims, 'verification_review_claims')}`,
  );
  return row === undefined ? undefined : tableRowOf(verificationReviewClaims, row);
}

/** The claim on the session as it stands (live or not), or undefined. */
export async function findClaim(db: DatabaseExecutor, sessionId: string): Promise<VerificationReviewClaim | undefined> {
  const [claim] = await db
    .select()
    .from(verificationReviewClaims)
    .where(eq(verificationReviewClaims.sessionId, sessionId));
  return claim;
}

/** Removes the session's claim: it was decided, and leaves the queue. */
/** Adds the deletion of the session's claim to the unit of work, sent at its commit. */
export function addClaimDeletion(work: UnitOfWork, sessionId: string): void {
  work.write(sql`delete from ${verificationReviewClaims} where ${verificationReviewClaims.sessionId} = ${sessionId}::uuid
    returning session_id`);
}
