import { type DocumentKind, documentKindsOf, unitOfWork, type VerificationType } from '@platform/db';
import { invalidFields, type ValidationDetail } from '@platform/errors';
import { moveSession, sealedVerifiedOutputs } from '@platform/verification-lifecycle';
import { addAuditEvent } from '../audit/index.js';
import { claimFor } from './claim-review.js';
import { addClaimDeletion } from './repository.js';
import {
  auditOf,
  platformOrganization,
  type Reviewer,
  type ReviewServiceOptions,
  sessionToAct,
} from './review-context.js';
import type { DecidedReview, ReviewDecision, ReviewDecisionInput } from './review-views.js';

// A reviewer's decision: a move of the session lifecycle, so money, the callback, kycStatus and notifications follow
// exactly as for any other decision, in one unit of work with the claim's removal and the audit event.

export async function decideReview(
  options: ReviewServiceOptions,
  reviewer: Reviewer,
  sessionId: string,
  input: ReviewDecisionInput,
): Promise<DecidedReview> {
  const organizationId = platformOrganization(options);
  const at = options.now();
  const reason = input.reason?.trim() || undefined;
  const result = await unitOfWork(options.db, async (work) => {
    const tx = await work.transaction();
    const { session } = await sessionToAct(tx, sessionId, at);
    checkDecision(session.type, input.decision, reason, input.documents);
    // Deciding without a claim claims first, so a live claim of another reviewer refuses it (409), and of two
    // reviewers deciding at once the second waits on the first's claim row.
    await claimFor(tx, reviewer, sessionId, at);
    // An approval verifies what the checks saw, as Smile ID's would (docs/decisions.md#verified-data).
    const verifiedOutputs =
      input.decision === 'verified' ? await sealedVerifiedOutputs(tx, options.vault, session) : undefined;
    const moved = await moveSession(
      work,
      {
        sessionId,
        to: input.decision,
        actor: `reviewer:${reviewer.userId}`,
        reason: reason ?? null,
        resubmitDocuments: input.decision === 'requires_input' ? input.documents : undefined,
        verifiedOutputs,
        now: at,
      },
      { platformOrganizationId: organizationId },
    );
    // Decided: the session leaves the queue (its claim goes). If it comes back (requires_input, then a new
    // submission), it is a new review with no claim. Both are written with the move's consequences, in the
    // unit's last statement, which takes the wallet's lock (docs/decisions.md#a-unit-of-work).
    addClaimDeletion(work, sessionId);
    addAuditEvent(work, auditOf(reviewer), {
      organizationId,
      action: 'review.decided',
      targetType: 'verification_session',
      targetId: sessionId,
      details: {
        sessionId,
        decision: input.decision,
        type: session.type,
        environment: session.environment,
        ...(moved.session.resubmitDocuments === null ? {} : { documents: moved.session.resubmitDocuments }),
      },
    });
    return moved;
  });
  if (result.decision !== undefined) options.onDecided?.(result.decision);
  return {
    sessionId,
    status: input.decision,
    previousStatus: result.previousStatus,
    reason: result.session.lastError,
    resubmitDocuments: result.session.resubmitDocuments,
    decidedAt: at.toISOString(),
  };
}

/**
 * The decision's own rules, checked before anything is written (400 listing every problem): a reason unless
 * verified; `documents` only with requires_input, each a kind of the session's type.
 */
function checkDecision(
  type: VerificationType,
  decision: ReviewDecision,
  reason: string | undefined,
  documents: readonly DocumentKind[] | undefined,
): void {
  const problems: ValidationDetail[] = [];
  if (decision !== 'verified' && reason === undefined) {
    problems.push({ path: '/reason', message: `is required when the decision is ${decision}` });
  }
  if (documents !== undefined && documents.length > 0) {
    if (decision !== 'requires_input') {
      problems.push({ path: '/documents', message: 'is taken only when the decision is requires_input' });
    } else {
      const foreign = documents.filter((kind) => !documentKindsOf(type).includes(kind));
      if (foreign.length > 0) {
        problems.push({
          path: '/documents',
          message: `${foreign.join(', ')} is not a document of a ${type} session (${documentKindsOf(type).join(', ')})`,
        });
      }
    }
  }
  if (problems.length > 0) throw invalidFields(problems);
}
