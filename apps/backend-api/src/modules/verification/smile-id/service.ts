import type { Transaction, VerificationProviderJob, VerificationSession } from '@platform/db';
import { unauthorized } from '@platform/errors';
import { handOverSession, readAnySession, workThroughDueSessions } from '../index.js';
import { applyResult } from './apply-result.js';
import { isRecord, resultOf, type SmileIdJob, SmileIdRefusedError, SmileIdUnavailableError } from './client.js';
import type { SmileIdContext } from './context.js';
import { JobInputMissingError, jobInputOf } from './job-input.js';
import type { CallbackOutcome, FallbackReason } from './metrics.js';
import { firstJobKind } from './plan.js';
import {
  claimDueJob,
  closeJob,
  findJob,
  insertJob,
  leaseJob,
  lockJob,
  markRetry,
  markSubmitted,
} from './repository.js';
import { isSmileIdSignature } from './signature.js';

// The smile_id decision source (docs/decisions.md#automated-decisions). A submission writes its first job row in its
// own transaction; after the commit, the job loop gives the job to Smile ID (never inside a transaction), and Smile
// ID's result, by signed callback, by job status or in a synchronous answer, is applied once under the job's row lock
// (apply-result.ts): its checks recorded, then the next job of the plan (plan.ts) or the policy's decision. A job
// Smile ID refuses or no result within SMILE_ID_FALLBACK_AFTER_MS of a job hands the session to a reviewer.

const ACTOR = 'smile_id';
/** A creation retried at once waits this long, doubling each time up to the reconcile time. */
const FIRST_RETRY_MS = 10_000;

/** In the submission's transaction: a session Smile ID decides gets its job, to create once the transaction commits. */
export async function recordJobOnSubmission(tx: Transaction, session: VerificationSession, now: Date): Promise<void> {
  if (session.decisionSource !== 'smile_id') return;
  await insertJob(tx, {
    sessionId: session.id,
    provider: 'smile_id',
    kind: firstJobKind(session.type),
    status: 'creating',
    nextCheckAt: now,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Works through at most `batchSize` due jobs, one at a time: each is claimed and leased in a short transaction
 * (FOR UPDATE SKIP LOCKED, so instances take different jobs), then worked on with no transaction open. A job whose
 * work throws is logged and passed over for the rest of the run (`skip`). Returns how many it claimed.
 */
export async function workThroughDueJobs(
  ctx: SmileIdContext,
  { batchSize, skip }: { batchSize: number; skip: Set<string> },
): Promise<number> {
  let done = 0;
  while (done < batchSize) {
    const now = ctx.now();
    let claimed: string | undefined;
    const leased = await workThroughDueSessions(ctx.db, {
      batchSize: 1,
      skip,
      claim: (tx, passOver) => claimDueJob(tx, { now, skip: passOver }),
      work: (tx, jobId) => leaseJob(tx, jobId, new Date(now.getTime() + ctx.leaseMs), now),
      onFailed: (error, jobId) => ctx.logger?.error({ err: error, jobId }, 'Could not claim a Smile ID job'),
      onDone: (jobId) => {
        claimed = jobId;
      },
    });
    if (leased === 0 || claimed === undefined) break;
    done += 1;
    try {
      await workOnJob(ctx, claimed);
    } catch (error) {
      skip.add(claimed);
      ctx.logger?.error({ err: error, jobId: claimed }, 'A Smile ID job failed; passing over it');
    }
  }
  return done;
}

/** One claimed job: given to Smile ID when it has not taken it yet, else asked about; or handed to review. */
async function workOnJob(ctx: SmileIdContext, jobId: string): Promise<void> {
  const job = await findJob(ctx.db, jobId);
  if (job === undefined || (job.status !== 'creating' && job.status !== 'submitted')) return;
  const session = await readAnySession(ctx.db, job.sessionId);
  if (session === undefined || session.status !== 'processing' || session.decisionSource !== 'smile_id') {
    // Decided or handed over meanwhile: nothing is left for Smile ID to do.
    await ctx.db.transaction((tx) =>
      closeJob(tx, job.id, {
        status: 'failed',
        resultCode: null,
        providerJobId: undefined,
        lastError: 'session_moved',
        now: ctx.now(),
      }),
    );
    return;
  }
  if (job.status === 'submitted' || (job.attempts > 1 && mayHaveBeenTaken(job))) {
    await askAboutJob(ctx, job);
    return;
  }
  await createJob(ctx, job, session);
}

/** An earlier creation ended without an answer: Smile ID may have taken it, so it is asked before sending again. */
function mayHaveBeenTaken(job: VerificationProviderJob): boolean {
  // An AML Check has no job status: it is asked again, which costs a lookup and changes nothing.
  if (job.kind === 'aml_screening') return false;
  // An answer that was not usable (badly signed, unexpected) came from a Smile ID that took the job.
  return ['timeout', 'connection_lost', 'server_error', 'bad_signature', 'unexpected_answer'].includes(
    job.lastError ?? '',
  );
}

function deadlineOf(ctx: SmileIdContext, job: VerificationProviderJob): Date {
  return new Date(job.createdAt.getTime() + ctx.fallbackAfterMs);
}

function retryDelay(ctx: SmileIdContext, attempts: number): number {
  return Math.min(ctx.reconcileAfterMs, FIRST_RETRY_MS * 2 ** Math.min(Math.max(attempts - 1, 0), 20));
}

function earlier(a: Date, b: Date): Date {
  return a.getTime() <= b.getTime() ? a : b;
}

function identityOf(ctx: SmileIdContext, job: VerificationProviderJob) {
  // Our job id is Smile ID's job_id and user_id: random, shared with Smile ID alone, so a result naming it is about
  // this job; the session id (the hosted page's credential) never leaves the service.
  return { jobId: job.id, userId: job.id, callbackUrl: ctx.callbackUrl };
}

async function createJob(ctx: SmileIdContext, job: VerificationProviderJob, session: VerificationSession) {
  const now = ctx.now();
  const deadline = deadlineOf(ctx, job);
  if (now.getTime() >= deadline.getTime()) {
    await fallBack(ctx, job.id, 'no_result', noResultReason(ctx));
    return;
  }
  let input: SmileIdJob;
  try {
    input = await jobInputOf(ctx.db, ctx.vault, session, job.kind, identityOf(ctx, job));
  } catch (error) {
    if (!(error instanceof JobInputMissingError)) throw error;
    await fallBack(
      ctx,
      job.id,
      'unsendable',
      'The documents or details Smile ID needs were not found; a reviewer decides',
    );
    return;
  }
  try {
    const { smileJobId, results } = await ctx.client.createJob(input);
    if (results !== undefined) {
      // A synchronous job (Enhanced KYC, AML) answered its result: applied like a callback's, under the job's lock.
      await applyResult(ctx, job.id, results);
      return;
    }
    const taken = ctx.now();
    await ctx.db.transaction((tx) =>
      markSubmitted(tx, job.id, {
        providerJobId: smileJobId,
        now: taken,
        nextCheckAt: earlier(new Date(taken.getTime() + ctx.reconcileAfterMs), deadline),
      }),
    );
    ctx.logger?.info({ sessionId: session.id }, 'Smile ID took a verification job');
  } catch (error) {
    if (error instanceof SmileIdRefusedError) {
      const code = error.code === undefined ? '' : ` (code ${error.code})`;
      await fallBack(ctx, job.id, 'refused', `Smile ID could not take the job${code}; a reviewer decides`);
      return;
    }
    if (!(error instanceof SmileIdUnavailableError)) throw error;
    ctx.logger?.warn({ sessionId: session.id, kind: error.kind }, 'Smile ID could not be given a job; trying again');
    await retryLater(ctx, job, error.kind, now, deadline);
  }
}

/** A job without a result (or whose creation may have reached Smile ID): its status decides what follows. */
async function askAboutJob(ctx: SmileIdContext, job: VerificationProviderJob): Promise<void> {
  const now = ctx.now();
  const deadline = deadlineOf(ctx, job);
  try {
    const status = await ctx.client.jobStatus({ jobId: job.id, userId: job.id });
    if (status.complete) {
      // The answer is about the job asked for, whatever its PartnerParams say.
      const outcome = await applyResult(ctx, job.id, [status.result]);
      ctx.metrics?.reconciliation(outcome === 'duplicate' || outcome === 'late' ? 'duplicate' : 'applied');
      return;
    }
    ctx.metrics?.reconciliation('pending');
    if (job.status === 'creating') {
      // Smile ID has it after all: wait for its result like any job it took.
      await ctx.db.transaction((tx) =>
        markSubmitted(tx, job.id, {
          providerJobId: undefined,
          now,
          nextCheckAt: earlier(new Date(now.getTime() + ctx.reconcileAfterMs), deadline),
        }),
      );
      return;
    }
    if (now.getTime() >= deadline.getTime()) {
      await fallBack(ctx, job.id, 'no_result', noResultReason(ctx));
      return;
    }
    await ctx.db.transaction((tx) =>
      markRetry(tx, job.id, {
        lastError: null,
        now,
        nextCheckAt: earlier(new Date(now.getTime() + ctx.reconcileAfterMs), deadline),
      }),
    );
  } catch (error) {
    if (error instanceof SmileIdRefusedError && job.status === 'creating') {
      // Smile ID does not know the job: the earlier creation never reached it, so it is created now.
      const session = await readAnySession(ctx.db, job.sessionId);
      if (session !== undefined) await createJob(ctx, job, session);
      return;
    }
    if (!(error instanceof SmileIdUnavailableError) && !(error instanceof SmileIdRefusedError)) throw error;
    ctx.metrics?.reconciliation('failed');
    const kind = error instanceof SmileIdRefusedError ? 'refused' : error.kind;
    ctx.logger?.warn({ sessionId: job.sessionId, kind }, 'Could not ask Smile ID about a job; trying again');
    // A creation that may have reached Smile ID stays one: the next attempt asks again before sending it anew.
    await retryLater(ctx, job, job.status === 'creating' ? (job.lastError ?? kind) : kind, now, deadline);
  }
}

async function retryLater(
  ctx: SmileIdContext,
  job: VerificationProviderJob,
  lastError: string,
  now: Date,
  deadline: Date,
): Promise<void> {
  if (now.getTime() >= deadline.getTime()) {
    await fallBack(ctx, job.id, 'no_result', noResultReason(ctx));
    return;
  }
  const next = earlier(new Date(now.getTime() + retryDelay(ctx, job.attempts)), deadline);
  await ctx.db.transaction((tx) => markRetry(tx, job.id, { lastError, now, nextCheckAt: next }));
}

function noResultReason(ctx: SmileIdContext): string {
  const minutes = Math.round(ctx.fallbackAfterMs / 60_000);
  const within = minutes % 60 === 0 && minutes > 60 ? `${minutes / 60} hours` : `${minutes} minutes`;
  return `Smile ID gave no result within ${within} of the submission; a reviewer decides`;
}

/**
 * Hands the job's session to manual review (docs/decisions.md#fallback-to-manual-review), once: under the job's
 * lock, only while the job is still open. Returns whether it did.
 */
async function fallBack(ctx: SmileIdContext, jobId: string, why: FallbackReason, reason: string): Promise<boolean> {
  const now = ctx.now();
  const handed = await ctx.db.transaction(async (tx) => {
    const job = await lockJob(tx, jobId);
    if (job === undefined || (job.status !== 'creating' && job.status !== 'submitted')) return false;
    await handOverSession(tx, { sessionId: job.sessionId, from: 'smile_id', to: 'manual', actor: ACTOR, reason, now });
    await closeJob(tx, job.id, { status: 'failed', resultCode: null, providerJobId: undefined, lastError: why, now });
    return true;
  });
  if (handed) {
    ctx.metrics?.fallback(why);
    ctx.logger?.warn({ jobId, reason: why }, 'A Smile ID session was sent to manual review');
  }
  return handed;
}

/**
 * A callback from Smile ID: its signature (in the body, over its timestamp) is checked before anything else is
 * read; a bad one is a 401 and changes nothing. A signed callback without a result is acknowledged and ignored.
 */
export async function receiveCallback(ctx: SmileIdContext, body: unknown): Promise<CallbackOutcome> {
  const signed = isRecord(body) && isSmileIdSignature(ctx.credentials, body.timestamp, body.signature);
  if (!signed) {
    ctx.metrics?.callback('refused');
    throw unauthorized('The callback is not signed by Smile ID', 'SmileID-Signature');
  }
  const result = resultOf(body);
  const outcome = result === undefined ? 'ignored' : await applyResult(ctx, result.jobId, [result]);
  ctx.metrics?.callback(outcome);
  return outcome;
}
