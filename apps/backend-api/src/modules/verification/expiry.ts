import { type Database, unitOfWorkIn } from '@platform/db';
import { startPeriodicJob } from '@platform/http';
import { expirableStatuses, type LifecycleOptions, moveSession } from '@platform/verification-lifecycle';
import { runUntilNothingDue, workThroughDueSessions } from './due-sessions.js';
import { claimDueSession } from './repository.js';

const DEFAULT_EXPIRY_BATCH_SIZE = 100;

export interface ExpiryLogger {
  error(details: object, message: string): void;
}

export interface ExpiryOptions extends LifecycleOptions {
  batchSize?: number;
  /** Where a session that could not be expired is reported, at error level with its id. */
  logger?: ExpiryLogger | undefined;
  /**
   * Sessions to pass over; the ids of sessions that fail in this call are added. A scheduled run shares one set
   * across its batches, so it tries each failing session once.
   */
  skip?: Set<string>;
}

/**
 * Expires the sessions still pending or awaiting input whose expiresAt has passed at `now`, at most
 * `batchSize` per call, and returns how many it expired. Each session is claimed with FOR UPDATE SKIP LOCKED
 * and moved in a transaction of its own: several instances (and a cancel racing the job) never move one
 * session twice, and no transaction holds the locks of many wallets at once, so none can deadlock another.
 *
 * A session whose move fails (say its hold is missing or was already resolved) is rolled back, logged and
 * passed over, so it cannot stop the sessions behind it; it stays due, and each later run tries it (and logs
 * it) again until someone puts it right. Failing to claim at all (the database is down) ends the call.
 */
export async function expireDueSessions(db: Database, now: Date, options: ExpiryOptions): Promise<number> {
  const { batchSize = DEFAULT_EXPIRY_BATCH_SIZE, logger, skip = new Set<string>(), ...lifecycle } = options;
  return workThroughDueSessions(db, {
    batchSize,
    skip,
    claim: (tx, passOver) => claimDueSession(tx, { statuses: expirableStatuses, now, skip: passOver }),
    work: async (tx, sessionId) => {
      await unitOfWorkIn(tx, (work) =>
        moveSession(work, { sessionId, to: 'expired', actor: 'expiry_job', now }, lifecycle),
      );
    },
    onFailed: (error, sessionId) =>
      logger?.error({ err: error, sessionId }, 'Could not expire a verification session; passing over it'),
  });
}

export interface ExpiryScheduleOptions extends LifecycleOptions {
  db: Database;
  /** The service's clock: what counts as due. */
  now: () => Date;
  intervalMs: number;
  batchSize?: number;
  logger?: ExpiryLogger & { info(details: object, message: string): void };
}

export interface ExpirySchedule {
  /** Runs the job now (or joins the run in progress); resolves with how many sessions it expired. */
  runNow(): Promise<number>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the expiry job every `intervalMs` until stopped. The timer is unref'd, so it never keeps a process alive;
 * runs never overlap; a run expires batch after batch until nothing is due (passing over, and logging, each session
 * that fails); a run that fails as a whole is logged and the next tick tries again.
 */
export function startSessionExpiry({
  db,
  now,
  intervalMs,
  batchSize,
  logger,
  ...lifecycle
}: ExpiryScheduleOptions): ExpirySchedule {
  const size = batchSize ?? DEFAULT_EXPIRY_BATCH_SIZE;
  const job = startPeriodicJob({
    name: 'Expiring verification sessions',
    intervalMs,
    logger,
    run: async () => {
      const { total } = await runUntilNothingDue(size, (skip) =>
        expireDueSessions(db, now(), { ...lifecycle, batchSize: size, logger, skip }),
      );
      if (total > 0) logger?.info({ expired: total }, 'Expired verification sessions');
      return total;
    },
  });
  return { runNow: async () => (await job.runNow()) ?? 0, stop: job.stop };
}
