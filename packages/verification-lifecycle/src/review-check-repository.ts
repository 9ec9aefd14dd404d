import type { DatabaseExecutor, VerificationCheck } from '@platform/db';
import { verificationChecks, verificationSessions } from '@platform/db/schema/verification';
import { asc, eq } from 'drizzle-orm';

// The checks a reviewer reads beside the documents (docs/decisions.md#the-checks-beside-the-documents): their kind,
// source, outcome, code, summary and details, in this service's words, and the sealed `evidence` (the person's data a
// check saw: the registry's names, the screening hits), which the reviews module opens for the reviewer. main-api's reviews module runs it through this package's index.ts: the checks are
// backend-api's verification module's table (docs/decisions.md#one-owner-per-table).

export type ReviewCheckRow = Pick<
  VerificationCheck,
  'id' | 'kind' | 'source' | 'outcome' | 'code' | 'summary' | 'details' | 'evidence' | 'submittedAt' | 'createdAt'
>;

/** Every check of the session, oldest submission first, in the order each submission's were made. */
export function listReviewChecks(db: DatabaseExecutor, sessionId: string): Promise<ReviewCheckRow[]> {
  return db
    .select({
      id: verificationChecks.id,
      kind: verificationChecks.kind,
      source: verificationChecks.source,
      outcome: verificationChecks.outcome,
      code: verificationChecks.code,
      summary: verificationChecks.summary,
      details: verificationChecks.details,
      evidence: verificationChecks.evidence,
      submittedAt: verificationChecks.submittedAt,
      createdAt: verificationChecks.createdAt,
    })
    .from(verificationChecks)
    .where(eq(verificationChecks.sessionId, sessionId))
    .orderBy(asc(verificationChecks.submittedAt), asc(verificationChecks.createdAt), asc(verificationChecks.id));
}

/**
 * The directors' own sessions of a kyb session (docs/decisions.md#directors), in the order the registry named them
 * (their end user ids end in `#director-<n>`), with their status: the verified data gives each director their result.
 */
export function listDirectorResults(
  db: DatabaseExecutor,
  parentSessionId: string,
): Promise<Array<{ id: string; status: string }>> {
  return db
    .select({ id: verificationSessions.id, status: verificationSessions.status })
    .from(verificationSessions)
    .where(eq(verificationSessions.parentSessionId, parentSessionId))
    .orderBy(asc(verificationSessions.externalEndUserId));
}
