import type {
  ApiKeyOwner,
  DatabaseExecutor,
  DecisionSourceKind,
  KycStatus,
  VerificationSession,
  VerificationStatus,
} from '@platform/db';
import { users, verificationSessions, verificationSessionTransitions } from '@platform/db/schema';
import { and, eq, isNull, max, ne, or } from 'drizzle-orm';

// The queries the lifecycle runs. A query given an owner sees only the sessions of that organization and
// environment (docs/decisions.md#folders-per-environment).

const ownedBy = (owner: ApiKeyOwner | undefined) =>
  owner &&
  and(
    eq(verificationSessions.organizationId, owner.organizationId),
    eq(verificationSessions.environment, owner.environment),
  );

/** The session with this id; with an owner, only if it is the owner's. */
export async function findSession(
  db: DatabaseExecutor,
  id: string,
  owner?: ApiKeyOwner,
): Promise<VerificationSession | undefined> {
  const [session] = await db
    .select()
    .from(verificationSessions)
    .where(and(eq(verificationSessions.id, id), ownedBy(owner)));
  return session;
}

/**
 * Changes the session's status, only while it still has the status `from`: undefined when another move committed
 * first.
 */
export async function updateSessionStatus(
  tx: DatabaseExecutor,
  id: string,
  from: VerificationStatus,
  change: Pick<VerificationSession, 'status' | 'lastError' | 'resubmitDocuments' | 'updatedAt' | 'completedAt'>,
): Promise<VerificationSession | undefined> {
  const [moved] = await tx
    .update(verificationSessions)
    .set(change)
    .where(and(eq(verificationSessions.id, id), eq(verificationSessions.status, from)))
    .returning();
  return moved;
}

export async function insertTransition(
  tx: DatabaseExecutor,
  transition: typeof verificationSessionTransitions.$inferInsert,
): Promise<void> {
  await tx.insert(verificationSessionTransitions).values(transition);
}

export async function setUserKycStatus(
  tx: DatabaseExecutor,
  userId: string,
  kycStatus: KycStatus,
  now: Date,
): Promise<void> {
  await tx.update(users).set({ kycStatus, updatedAt: now }).where(eq(users.id, userId));
}

/**
 * When the session last moved to `status`, from its transitions; undefined if it never did. A hand-over to another
 * decision source (a transition from a status to the same status) is not a move.
 */
export async function lastMovedTo(
  db: DatabaseExecutor,
  sessionId: string,
  status: VerificationStatus,
): Promise<Date | undefined> {
  const [row] = await db
    .select({ at: max(verificationSessionTransitions.createdAt) })
    .from(verificationSessionTransitions)
    .where(
      and(
        eq(verificationSessionTransitions.sessionId, sessionId),
        eq(verificationSessionTransitions.toStatus, status),
        or(
          isNull(verificationSessionTransitions.fromStatus),
          ne(verificationSessionTransitions.fromStatus, verificationSessionTransitions.toStatus),
        ),
      ),
    );
  return row?.at ?? undefined;
}

/**
 * Gives a session waiting in `processing` from decision source `from` to `to`; undefined when it is no longer
 * processing or no longer decided by `from` (another instance, a result, got there first).
 */
export async function updateDecisionSource(
  tx: DatabaseExecutor,
  id: string,
  change: { from: DecisionSourceKind; to: DecisionSourceKind; now: Date },
): Promise<VerificationSession | undefined> {
  const [handed] = await tx
    .update(verificationSessions)
    .set({ decisionSource: change.to, updatedAt: change.now })
    .where(
      and(
        eq(verificationSessions.id, id),
        eq(verificationSessions.status, 'processing'),
        eq(verificationSessions.decisionSource, change.from),
      ),
    )
    .returning();
  return handed;
}
