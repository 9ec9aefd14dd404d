import type { VerificationSession, VerificationSessionTransition } from '@platform/db';
import type { SessionCallback } from '@platform/webhooks';
import type { OrganizationSessionDetailView, OrganizationSessionView } from './schemas.js';

// How a session, its status changes and its callbacks read on the main API
// (docs/decisions.md#organization-session-list): backend-api's view of a session without the hosted page's URL,
// actors without the platform's reviewers' ids, attempts without URLs or error words.

type SessionDetail = OrganizationSessionDetailView;

export function sessionView(session: VerificationSession): OrganizationSessionView {
  return {
    sessionId: session.id,
    type: session.type,
    environment: session.environment,
    status: session.status,
    externalEndUserId: session.externalEndUserId,
    appName: session.appName,
    callbackUrl: session.callbackUrl,
    locale: session.locale,
    returnUrl: session.returnUrl,
    privacyNoticeUrl: session.privacyNoticeUrl,
    requiredDocuments: session.requiredDocuments,
    lastError: session.lastError,
    lastErrorCode: session.lastErrorCode,
    resubmitDocuments: session.resubmitDocuments,
    price: session.price,
    createdAt: session.createdAt.toISOString(),
    updatedAt: session.updatedAt.toISOString(),
    expiresAt: session.expiresAt.toISOString(),
    completedAt: session.completedAt?.toISOString() ?? null,
    submittedAt: session.submittedAt?.toISOString() ?? null,
    personalDataErasedAt: session.personalDataErasedAt?.toISOString() ?? null,
  };
}

/** Actors whose id the organization sees: its own keys and members. A reviewer is the platform's staff. */
const ACTORS_WITH_IDS = new Set(['api_key', 'member']);

/** `api_key:<id>` as {kind: 'api_key', id}; `reviewer:<userId>` as {kind: 'reviewer', id: null}; `hosted_page` as is. */
function actorView(actor: string): SessionDetail['transitions'][number]['actor'] {
  const colon = actor.indexOf(':');
  const kind = colon === -1 ? actor : actor.slice(0, colon);
  const id = colon === -1 ? null : actor.slice(colon + 1);
  return { kind, id: ACTORS_WITH_IDS.has(kind) ? id : null };
}

const decisionOutcomes = new Set(['verified', 'rejected', 'requires_input']);

/** The latest move out of processing to a decision, with its reason; null while none was made. */
function decisionOf(
  session: VerificationSession,
  transitions: readonly VerificationSessionTransition[],
): SessionDetail['decision'] {
  const decided = transitions.findLast(
    (transition) => transition.fromStatus === 'processing' && decisionOutcomes.has(transition.toStatus),
  );
  if (decided === undefined) return null;
  const outcome = decided.toStatus as 'verified' | 'rejected' | 'requires_input';
  // A mover that gave no words left the lifecycle's default reason on the session, which is the one sent.
  const current = session.status === outcome && decided === transitions.at(-1);
  return {
    outcome,
    reason: outcome === 'verified' ? null : (decided.reason ?? (current ? session.lastError : null)),
    source: session.decisionSource,
    decidedAt: decided.createdAt.toISOString(),
  };
}

export function sessionDetailView(
  session: VerificationSession,
  transitions: readonly VerificationSessionTransition[],
  callbacks: readonly SessionCallback[],
): SessionDetail {
  return {
    session: sessionView(session),
    transitions: transitions.map((transition) => ({
      fromStatus: transition.fromStatus,
      toStatus: transition.toStatus,
      actor: actorView(transition.actor),
      reason: transition.reason,
      at: transition.createdAt.toISOString(),
    })),
    callbacks: callbacks.map((callback) => ({
      eventId: callback.eventId,
      type: callback.type,
      status: callback.status,
      createdAt: callback.createdAt.toISOString(),
      deliveredAt: callback.deliveredAt?.toISOString() ?? null,
      attempts: callback.attempts.map((attempt) => ({
        delivery: attempt.delivery,
        attempt: attempt.attempt,
        at: attempt.at.toISOString(),
        statusCode: attempt.responseStatus,
        outcome: attempt.outcome,
        durationMs: attempt.durationMs,
      })),
    })),
    decision: decisionOf(session, transitions),
  };
}
