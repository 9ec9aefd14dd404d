import type { DatabaseExecutor, NewVerificationCheck, VerificationCheck, VerificationSession } from '@platform/db';
import { verificationChecks, verificationSessions } from '@platform/db/schema/verification';
import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';

// The queries of `verification_checks`.

export async function insertChecks(tx: DatabaseExecutor, rows: readonly NewVerificationCheck[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(verificationChecks).values([...rows]);
}

/** The checks of one submission of the session, in the order they were made. */
export function listSubmissionChecks(
  tx: DatabaseExecutor,
  sessionId: string,
  submittedAt: Date,
): Promise<VerificationCheck[]> {
  return tx
    .select()
    .from(verificationChecks)
    .where(and(eq(verificationChecks.sessionId, sessionId), eq(verificationChecks.submittedAt, submittedAt)))
    .orderBy(asc(verificationChecks.createdAt), asc(verificationChecks.id));
}

/** When the last check of the submission was recorded; undefined before its first. */
export async function latestCheckTime(
  tx: DatabaseExecutor,
  sessionId: string,
  submittedAt: Date,
): Promise<Date | undefined> {
  const [row] = await tx
    .select({ createdAt: verificationChecks.createdAt })
    .from(verificationChecks)
    .where(and(eq(verificationChecks.sessionId, sessionId), eq(verificationChecks.submittedAt, submittedAt)))
    .orderBy(desc(verificationChecks.createdAt))
    .limit(1);
  return row?.createdAt;
}

/** Every check of the session, oldest submission first. */
export function listSessionChecks(tx: DatabaseExecutor, sessionId: string): Promise<VerificationCheck[]> {
  return tx
    .select()
    .from(verificationChecks)
    .where(eq(verificationChecks.sessionId, sessionId))
    .orderBy(asc(verificationChecks.submittedAt), asc(verificationChecks.createdAt), asc(verificationChecks.id));
}

/** Erasure: the sealed evidence goes with the documents; the checks' outcomes and summaries stay. */
export async function eraseCheckEvidence(tx: DatabaseExecutor, sessionId: string): Promise<void> {
  await tx
    .update(verificationChecks)
    .set({ evidence: null })
    .where(and(eq(verificationChecks.sessionId, sessionId), isNotNull(verificationChecks.evidence)));
}

/** The sealed verified data of a session (null clears it). */
export async function writeVerifiedOutputs(
  tx: DatabaseExecutor,
  sessionId: string,
  sealed: Uint8Array | null,
): Promise<void> {
  await tx.update(verificationSessions).set({ verifiedOutputs: sealed }).where(eq(verificationSessions.id, sessionId));
}

/** The name of the policy that decided the session (docs/decisions.md#verification-policy). */
export async function writeDecisionPolicy(tx: DatabaseExecutor, sessionId: string, policy: string): Promise<void> {
  await tx.update(verificationSessions).set({ decisionPolicy: policy }).where(eq(verificationSessions.id, sessionId));
}

/** Holds, until the transaction ends, the lock of one ID number's digest in the session's organization and environment. */
export async function lockIdNumberDigest(
  tx: DatabaseExecutor,
  session: Pick<VerificationSession, 'organizationId' | 'environment'>,
  digest: string,
): Promise<void> {
  const lockName = `id_number:${session.organizationId}:${session.environment}:${digest}`;
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${lockName}, 0))`);
}

export async function writeIdNumberDigest(tx: DatabaseExecutor, sessionId: string, digest: string): Promise<void> {
  await tx.update(verificationSessions).set({ idNumberDigest: digest }).where(eq(verificationSessions.id, sessionId));
}

/**
 * The ids of the organization's other sessions in the environment with one of `digests`, of another end user,
 * verified or being decided (processing), newest first; a director's session (made by the service) is not one.
 */
export async function sessionsWithIdNumber(
  tx: DatabaseExecutor,
  session: Pick<VerificationSession, 'id' | 'organizationId' | 'environment' | 'externalEndUserId'>,
  digests: readonly string[],
): Promise<string[]> {
  const rows = await tx
    .select({ id: verificationSessions.id })
    .from(verificationSessions)
    .where(
      and(
        eq(verificationSessions.organizationId, session.organizationId),
        eq(verificationSessions.environment, session.environment),
        inArray(verificationSessions.idNumberDigest, [...digests]),
        ne(verificationSessions.id, session.id),
        ne(verificationSessions.externalEndUserId, session.externalEndUserId),
        inArray(verificationSessions.status, ['verified', 'processing']),
        isNull(verificationSessions.parentSessionId),
      ),
    )
    .orderBy(sql`${verificationSessions.createdAt} desc`);
  return rows.map((row) => row.id);
}
