import type { DatabaseExecutor } from '@platform/db';
import { conflict } from '@platform/errors';
import { recordAuditEvent } from '../audit/index.js';
import { claimSession, findClaim } from './repository.js';
import {
  auditOf,
  platformOrganization,
  type Reviewer,
  type ReviewServiceOptions,
  sessionToAct,
} from './review-context.js';
import type { ReviewClaimView } from './review-views.js';

// Claims: a reviewer takes a waiting session for 30 minutes, so no other reviewer claims or decides it meanwhile.

/** How long a claim keeps other reviewers off a session. */
export const CLAIM_TTL_MS = 30 * 60 * 1000;

/** Claims the session for the reviewer, or 409 naming when another reviewer's claim ends. */
export async function claimFor(tx: DatabaseExecutor, reviewer: Reviewer, sessionId: string, at: Date) {
  const claim = await claimSession(tx, {
    sessionId,
    reviewerId: reviewer.userId,
    claimedAt: at,
    expiresAt: new Date(at.getTime() + CLAIM_TTL_MS),
  });
  if (claim !== undefined) return claim;
  const held = await findClaim(tx, sessionId);
  throw conflict(`Claimed by another reviewer until ${(held?.expiresAt ?? at).toISOString()}`);
}

export async function claimReview(
  options: ReviewServiceOptions,
  reviewer: Reviewer,
  sessionId: string,
): Promise<ReviewClaimView> {
  const organizationId = platformOrganization(options);
  const at = options.now();
  return options.db.transaction(async (tx) => {
    await sessionToAct(tx, sessionId, at);
    const claim = await claimFor(tx, reviewer, sessionId, at);
    await recordAuditEvent(tx, auditOf(reviewer), {
      organizationId,
      action: 'review.claimed',
      targetType: 'verification_session',
      targetId: sessionId,
      details: { sessionId, expiresAt: claim.expiresAt.toISOString() },
    });
    return {
      sessionId,
      claimedBy: claim.reviewerId,
      claimedAt: claim.claimedAt.toISOString(),
      expiresAt: claim.expiresAt.toISOString(),
    };
  });
}
