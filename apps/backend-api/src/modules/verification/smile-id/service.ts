import {
  type Database,
  isUuid,
  type Transaction,
  unitOfWork,
  type VerificationProviderJob,
  type VerificationSession,
} from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { unauthorized } from '@platform/errors';
import {
  handOverSession,
  type LifecycleOptions,
  moveSession,
  readAnySession,
  workThroughDueSessions,
} from '../index.js';
import {
  isRecord,
  resultOf,
  type SmileIdClient,
  type SmileIdJob,
  SmileIdRefusedError,
  type SmileIdResult,
  SmileIdUnavailableError,
} from './client.js';
import { JobInputMissingError, jobInputOf } from './job-input.js';
import type { CallbackOutcome, FallbackReason, SmileIdMetrics } from './metrics.js';
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
import { outcomeOfResultCode } from './result-codes.js';
import { isSmileIdSignature, type SmileIdCredentials } from './signature.js';

// The smile_id decision source (docs/decisions.md#automated-decisions). A submission writes a job row in its own
// transaction; after the commit, the job loop gives the job to Smile ID (never inside a transaction), and Smile ID's
// result, by signed callback or by job status, is applied once under the job's row lock. A job Smile ID refuses, a
// result that maps to nothing, or no result within SMILE_ID_FALLBACK_AFTER_MS hands the session to a reviewer.

export interface SmileIdLogger {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface SmileIdContext {
  db: Database;
  vault: DocumentVault;
  client: SmileIdClient;
  credentials: SmileIdCredentials;
  now: () => Date;
  /** Where Smile ID sends results. */
  callbackUrl: string;
  /** A job without a result this long after Smile ID took it is asked about. */
  reconcileAfterMs: number;
  /** A job without a result this long after the submission goes to manual review. */
  fallbackAfterMs: number;
  /** How long a claimed job is left to the instance that claimed it (its calls to Smile ID). */
  leaseMs: number;
  /** The lifecycle's options: kycStatus, and the decisions observed once committed. */
  lifecycle: LifecycleOptions;
  metrics?: SmileIdMetrics | undefined;
  logger?: SmileIdLogger | undefined;
}

const ACTOR = 'smile_id';
/** A creation retried at once waits this long, doubling each time up to the reconcile time. */
const FIRST_RETRY_MS = 10_000;

/** In the submission's transaction: a session Smile ID decides gets its job, to create once the transaction commits. */
export async function recordJobOnSubmission(tx: Transaction, session: VerificationSession, now: Date): Promise<void> {
  if (session.decisionSource !== 'smile_id') return;
  await insertJob(tx, {
    sessionId: session.id,
    provider: 'smile_id',
    kind: session.type === 'kyb' ? 'business_verification' : 'document_verification',
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
  return job.lastError === 'timeout' || job.lastError === 'connection_lost' || job.lastError === 'server_error';
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
    input = await jobInputOf(ctx.db, ctx.vault, session, identityOf(ctx, job));
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
    const { smileJobId } = await ctx.client.createJob(input);
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
      const outcome = await applyResult(ctx, { ...status.result, jobId: job.id });
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

/** Result codes are short codes; anything else is not stored and decides nothing. */
const RESULT_CODE = /^[0-9A-Za-z_-]{1,16}$/;

/**
 * Applies a result (from a callback or a job status) once: under the job's row lock, only while the job is open;
 * a second callback, or a result found by reconciliation after the callback, finds the job completed (`duplicate`),
 * a result after the fallback finds it failed (`late`). The decision is reported after the commit.
 */
async function applyResult(ctx: SmileIdContext, result: SmileIdResult): Promise<CallbackOutcome> {
  const { jobId } = result;
  if (jobId === undefined || !isUuid(jobId)) return 'unknown_job';
  const now = ctx.now();
  const resultCode = RESULT_CODE.test(result.resultCode) ? result.resultCode : null;
  // One unit of work: the session's move sent at once, the job closed, and the move's consequences (the hold's
  // capture, which takes the wallet's lock) written last, before COMMIT (docs/decisions.md#a-unit-of-work).
  const applied = await unitOfWork(ctx.db, async (work) => {
    const tx = await work.transaction();
    const job = await lockJob(tx, jobId);
    if (job === undefined) return { outcome: 'unknown_job' as const };
    if (job.providerJobId !== null && result.smileJobId !== undefined && job.providerJobId !== result.smileJobId) {
      return { outcome: 'unknown_job' as const };
    }
    if (job.status === 'completed') return { outcome: 'duplicate' as const };
    if (job.status === 'failed') return { outcome: 'late' as const };
    const session = await readAnySession(tx, job.sessionId);
    const close = (status: 'completed' | 'failed', lastError: string | null) =>
      closeJob(tx, job.id, { status, resultCode, providerJobId: result.smileJobId, lastError, now });
    if (session === undefined || session.status !== 'processing' || session.decisionSource !== 'smile_id') {
      await close('failed', 'session_moved');
      return { outcome: 'late' as const };
    }
    const outcome =
      resultCode === null ? { decision: 'review' as const } : outcomeOfResultCode(session.type, resultCode);
    if (outcome.decision === 'review') {
      const reason = `Smile ID answered result code ${resultCode ?? '(unreadable)'}, which this service does not map; a reviewer decides`;
      await handOverSession(tx, { sessionId: session.id, from: 'smile_id', to: 'manual', actor: ACTOR, reason, now });
      await close('completed', 'unmapped');
      return { outcome: 'review' as const, sessionId: session.id };
    }
    const moved = await moveSession(
      work,
      {
        sessionId: session.id,
        to: outcome.decision,
        actor: ACTOR,
        reason: outcome.decision === 'verified' ? null : outcome.reason,
        ...(outcome.decision === 'requires_input' ? { resubmitDocuments: outcome.resubmitDocuments } : {}),
        now,
      },
      ctx.lifecycle,
    );
    await close('completed', null);
    return { outcome: outcome.decision, decision: moved.decision, sessionId: session.id };
  });
  if ('decision' in applied && applied.decision !== undefined) ctx.lifecycle.onDecided?.(applied.decision);
  if (applied.outcome === 'review') ctx.metrics?.fallback('unmapped');
  if ('sessionId' in applied) {
    ctx.logger?.info({ sessionId: applied.sessionId, outcome: applied.outcome }, 'Applied a Smile ID result');
  }
  return applied.outcome;
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
  const outcome = result === undefined ? 'ignored' : await applyResult(ctx, result);
  ctx.metrics?.callback(outcome);
  return outcome;
}
