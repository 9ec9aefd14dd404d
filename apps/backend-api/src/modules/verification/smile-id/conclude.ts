import type { IdType, Transaction, UnitOfWork, VerificationSession } from '@platform/db';
import { findOrganization } from '@platform/organizations';
import { openSubmittedDetails, type SessionDecision, sealedVerifiedOutputs } from '@platform/verification-lifecycle';
import {
  type CheckResult,
  decideFromChecks,
  type PolicyDecision,
  policyNamed,
  submissionResults,
  type VerificationPolicy,
  writeDecisionPolicy,
} from '../checks/index.js';
import { decisionSourceFor } from '../decisions/index.js';
import { addDirectorSessions } from '../directors/index.js';
import { handOverSession, moveSession } from '../index.js';
import { listDirectorSessions } from '../repository.js';
import type { SmileIdContext } from './context.js';

// A submission whose jobs are done, decided by the organization's policy over every check of it
// (docs/decisions.md#smile-id-job-chain): verified, rejected or requires_input through the lifecycle, review handed to
// a person with the policy's reason; and a business whose registry record passed everything but its directors waits
// for them, each asked to verify in a session of their own (docs/decisions.md#directors).

const ACTOR = 'smile_id';

export interface JudgedSubmission {
  policy: VerificationPolicy;
  idType: IdType | undefined;
  results: CheckResult[];
  decision: PolicyDecision;
}

/** The policy's decision over the checks recorded so far for the session's current submission. */
export async function judgeSubmission(
  ctx: SmileIdContext,
  tx: Transaction,
  session: VerificationSession,
): Promise<JudgedSubmission> {
  const details = openSubmittedDetails(ctx.vault, session);
  const idType = details?.type === 'kyc' ? details.idType : undefined;
  const policy = policyNamed((await findOrganization(tx, session.organizationId))?.verificationPolicy);
  const results = await submissionResults(tx, session);
  return { policy, idType, results, decision: decideFromChecks(policy, session.type, idType, results) };
}

export type Conclusion =
  | { outcome: 'verified' | 'rejected' | 'requires_input'; decision: SessionDecision | undefined; sessionId: string }
  | { outcome: 'review' | 'directors_requested'; sessionId: string };

/** Applies the judged decision, in `work` (its transaction open). */
export async function concludeSubmission(
  ctx: SmileIdContext,
  work: UnitOfWork,
  session: VerificationSession,
  { policy, idType, results, decision }: JudgedSubmission,
  now: Date,
): Promise<Conclusion> {
  const tx = await work.transaction();
  if (await directorsToAsk(ctx, tx, work, session, { policy, idType, results }, now)) {
    return { outcome: 'directors_requested', sessionId: session.id };
  }
  await writeDecisionPolicy(tx, session.id, policy.name);
  if (decision.decision === 'review') {
    const reason = `${decision.reason} A reviewer decides.`;
    await handOverSession(tx, { sessionId: session.id, from: 'smile_id', to: 'manual', actor: ACTOR, reason, now });
    return { outcome: 'review', sessionId: session.id };
  }
  const verifiedOutputs =
    decision.decision === 'verified' ? await sealedVerifiedOutputs(tx, ctx.vault, session) : undefined;
  const moved = await moveSession(
    work,
    {
      sessionId: session.id,
      to: decision.decision,
      actor: ACTOR,
      reason: decision.decision === 'verified' ? null : decision.reason,
      ...(decision.decision === 'requires_input' ? { resubmitDocuments: decision.resubmitDocuments } : {}),
      verifiedOutputs,
      now,
    },
    ctx.lifecycle,
  );
  return { outcome: decision.decision, decision: moved.decision, sessionId: session.id };
}

/**
 * Whether the business waits for its directors: nothing but their check stands between it and verified, and the
 * registry named some. Their sessions are made the first time (a resubmission reuses those it has); the settlement
 * job records the check once the last of them ends.
 */
async function directorsToAsk(
  ctx: SmileIdContext,
  tx: Transaction,
  work: UnitOfWork,
  session: VerificationSession,
  { policy, idType, results }: Omit<JudgedSubmission, 'decision'>,
  now: Date,
): Promise<boolean> {
  if (session.type !== 'kyb' || ctx.directors === undefined) return false;
  if (results.some((result) => result.kind === 'directors')) return false;
  const assumed: CheckResult = { kind: 'directors', source: 'service', outcome: 'passed', summary: '' };
  if (decideFromChecks(policy, 'kyb', idType, [...results, assumed]).decision !== 'verified') return false;
  const registry = results.filter((result) => result.kind === 'business_registry').at(-1);
  const named = registryDirectorCount(registry);
  if (named === 0) return false;
  const existing = await listDirectorSessions(tx, session.id);
  if (existing.length === 0) {
    addDirectorSessions(work, session, named, {
      decisionSource: decisionSourceFor(ctx.directors, session.environment, 'kyc').kind,
      ttlMs: ctx.directors.ttlMs,
      now,
      lifecycle: ctx.lifecycle,
    });
  }
  return true;
}

/** A registry record naming more directors than this is left to a reviewer's judgement of the rest. */
const MAX_DIRECTORS = 20;

/** How many directors the registry named, from the check's details (a count: no names outside the evidence). */
function registryDirectorCount(registry: CheckResult | undefined): number {
  const count = registry?.details?.directors;
  return typeof count === 'number' && Number.isInteger(count) && count > 0 ? Math.min(count, MAX_DIRECTORS) : 0;
}
