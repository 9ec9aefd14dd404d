import type { DatabaseExecutor, NewVerificationCheck, VerificationCheck } from '@platform/db';
import { verificationChecks, verificationSessions } from '@platform/db/schema/verification';
import { and, asc, eq, isNotNull } from 'drizzle-orm';

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
