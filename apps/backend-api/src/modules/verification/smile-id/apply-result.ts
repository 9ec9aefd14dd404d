import { isUuid, type Transaction, unitOfWork, type VerificationSession } from '@platform/db';
import { findOrganization } from '@platform/organizations';
import {
  ageCheck,
  type CheckResult,
  nairobiDay,
  policyNamed,
  recordChecks,
  registryBirthDate,
} from '../checks/index.js';
import { readAnySession } from '../index.js';
import type { SmileIdResult } from './client.js';
import { concludeSubmission, judgeSubmission } from './conclude.js';
import type { SmileIdContext } from './context.js';
import type { CallbackOutcome } from './metrics.js';
import { nextJobKind } from './plan.js';
import { closeJob, insertJob, lockJob } from './repository.js';
import { checksOfJob, isUnmapped } from './result-codes.js';

// A job's result applied once (docs/decisions.md#smile-id-job-chain): under the job's row lock, only while the job is
// open, in one transaction: its checks recorded, the job closed, and either the plan's next job inserted or the
// session decided by the organization's policy over every check of the submission (this service's own included).
// A second callback, or a result found by reconciliation after the callback, finds the job completed (`duplicate`);
// a result after the fallback finds it failed (`late`). The decision is reported after the commit.

/**
 * The age check made again from the registry's date of birth when a job's record shows one: it replaces the one made
 * from the typed date (the newest of a kind counts), on the day of the submission (docs/decisions.md#own-checks).
 */
async function registryAgeCheck(
  tx: Transaction,
  session: Pick<VerificationSession, 'organizationId'>,
  submittedAt: Date,
  found: readonly CheckResult[],
): Promise<CheckResult[]> {
  const dateOfBirth = registryBirthDate(found);
  if (dateOfBirth === undefined) return [];
  const policy = policyNamed((await findOrganization(tx, session.organizationId))?.verificationPolicy);
  const today = nairobiDay(submittedAt);
  return [ageCheck(dateOfBirth, { minimumAge: policy.minimumAge, today, from: 'registry' })];
}

/** Result codes are short codes; anything else is not stored. */
const RESULT_CODE = /^[0-9A-Za-z_-]{1,16}$/;

export async function applyResult(
  ctx: SmileIdContext,
  jobId: string | undefined,
  results: readonly SmileIdResult[],
): Promise<CallbackOutcome> {
  if (jobId === undefined || !isUuid(jobId)) return 'unknown_job';
  const now = ctx.now();
  const [first] = results;
  const smileJobId = first?.smileJobId;
  const codes = results.map((result) => (RESULT_CODE.test(result.resultCode) ? result.resultCode : '(unreadable)'));
  // One unit of work: the session's move sent at once, the job closed, and the move's consequences (the hold's
  // capture, which takes the wallet's lock) written last, before COMMIT (docs/decisions.md#a-unit-of-work).
  const applied = await unitOfWork(ctx.db, async (work) => {
    const tx = await work.transaction();
    const job = await lockJob(tx, jobId);
    if (job === undefined) return { outcome: 'unknown_job' as const };
    if (job.providerJobId !== null && smileJobId !== undefined && job.providerJobId !== smileJobId) {
      return { outcome: 'unknown_job' as const };
    }
    if (job.status === 'completed') return { outcome: 'duplicate' as const };
    if (job.status === 'failed') return { outcome: 'late' as const };
    const session = await readAnySession(tx, job.sessionId);
    const resultCode = codes[0] === '(unreadable)' ? null : (codes[0] ?? null);
    const close = (status: 'completed' | 'failed', lastError: string | null) =>
      closeJob(tx, job.id, { status, resultCode, providerJobId: smileJobId, lastError, now });
    if (
      session === undefined ||
      session.status !== 'processing' ||
      session.decisionSource !== 'smile_id' ||
      session.submittedAt === null
    ) {
      await close('failed', 'session_moved');
      return { outcome: 'late' as const };
    }
    const found = checksOfJob(
      job.kind,
      results.map((result, index) => ({ ...result, resultCode: codes[index] ?? result.resultCode })),
    ).map((check) => ({ ...check, providerJobId: job.id }));
    const unmapped = found.some(isUnmapped);
    const registryAge = await registryAgeCheck(tx, session, session.submittedAt, found);
    await recordChecks(tx, ctx.vault, session, session.submittedAt, [...found, ...registryAge], now);
    await close('completed', unmapped ? 'unmapped' : null);

    const judged = await judgeSubmission(ctx, tx, session);
    const { decision, policy, idType } = judged;
    // A refusal or a resend is final whatever the next jobs would find: they are not paid for.
    const final = decision.decision === 'rejected' || decision.decision === 'requires_input';
    const next = final ? undefined : nextJobKind({ done: job.kind, type: session.type, idType, policy, found });
    if (next !== undefined) {
      await insertJob(tx, {
        sessionId: session.id,
        provider: 'smile_id',
        kind: next,
        status: 'creating',
        nextCheckAt: now,
        createdAt: now,
        updatedAt: now,
      });
      return { outcome: 'next_job' as const, sessionId: session.id, unmapped };
    }
    return { ...(await concludeSubmission(ctx, work, session, judged, now)), unmapped };
  });
  if ('decision' in applied && applied.decision !== undefined) ctx.lifecycle.onDecided?.(applied.decision);
  if ('unmapped' in applied && applied.unmapped) ctx.metrics?.fallback('unmapped');
  // A next job, or directors asked to verify, is worked on (and a director's decision settled) without waiting a tick.
  if (applied.outcome === 'next_job' || applied.outcome === 'directors_requested' || 'decision' in applied)
    ctx.kick?.();
  if ('sessionId' in applied) {
    ctx.logger?.info({ sessionId: applied.sessionId, outcome: applied.outcome }, 'Applied a Smile ID result');
  }
  return applied.outcome;
}
