import type { VerificationSessionTransition } from '@platform/db';
import type { ReviewActor, ReviewDecision, ReviewHistoryEntry } from './review-views.js';

// A session's history as a reviewer reads it, and its last decision (docs/decisions.md#decided-reviews): a decision
// is a move out of processing to another status. A hand-over (processing to processing, Smile ID giving the session
// to a reviewer) is in the history but decides nothing.

export interface LastDecision {
  decision: ReviewDecision;
  actor: string;
  reason: string | null;
  at: Date;
}

/** The session's last decision, or undefined when none was made (it waits for its first, or was never submitted). */
export function lastDecisionOf(transitions: readonly VerificationSessionTransition[]): LastDecision | undefined {
  const decisions = transitions.filter(
    (transition) => transition.fromStatus === 'processing' && transition.toStatus !== 'processing',
  );
  const last = decisions.at(-1);
  if (last === undefined) return undefined;
  return { decision: last.toStatus as ReviewDecision, actor: last.actor, reason: last.reason, at: last.createdAt };
}

/** The list's and the detail's decision fields: the last decision while decided, all null while the session waits. */
export function decisionFields(
  status: string,
  decision: LastDecision | undefined,
  actorOf: (actor: string) => ReviewActor,
): { decision: ReviewDecision | null; decidedBy: ReviewActor | null; decidedAt: string | null; reason: string | null } {
  if (status === 'processing' || decision === undefined) {
    return { decision: null, decidedBy: null, decidedAt: null, reason: null };
  }
  return {
    decision: decision.decision,
    decidedBy: actorOf(decision.actor),
    decidedAt: decision.at.toISOString(),
    reason: decision.reason,
  };
}

export function historyOf(
  transitions: readonly VerificationSessionTransition[],
  actorOf: (actor: string) => ReviewActor,
): ReviewHistoryEntry[] {
  return transitions.map((transition) => ({
    from: transition.fromStatus,
    to: transition.toStatus,
    reason: transition.reason,
    at: transition.createdAt.toISOString(),
    actor: actorOf(transition.actor),
  }));
}
