import { type Database, verificationSessions } from '@platform/db';
import { startPeriodicJob } from '@platform/http';
import { and, asc, inArray, lte } from 'drizzle-orm';
import { expirableStatuses, type LifecycleOptions, moveSession } from './lifecycle.js';

export const DEFAULT_EXPIRY_BATCH_SIZE = 100;

/**
 * Expires the sessions still pending or awaiting input whose expiresAt has passed at `now`, at most
 * `batchSize` per call, and returns how many it expired. Each session is claimed with FOR UPDATE SKIP LOCKED
 * and moved in a transaction of its own: several instances (and a cancel racing the job) never move one
 * session twice, and no transaction holds the locks of many wallets at once, so none can deadlock another.
 */
export async function expireDueSessions(
  db: Database,
  now: Date,
  options: LifecycleOptions & { batchSize?: number },
): Promise<number> {
  const batchSize = options.batchSize ?? DEFAULT_EXPIRY_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  let expired = 0;
  while (expired < batchSize) {
    const moved = await db.transaction(async (tx) => {
      const [due] = await tx
        .select({ id: verificationSessions.id })
        .from(verificationSessions)
        .where(and(inArray(verificationSessions.status, [...expirableStatuses]), lte(verificationSessions.expiresAt, now)))
        .orderBy(asc(verificationSessions.expiresAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (due === undefined) return false;
      await moveSession(tx, { sessionId: due.id, to: 'expired', actor: 'expiry_job', now }, options);
      return true;
    });
    if (!moved) break;
    expired += 1;
  }
  return expired;
}

export interface ExpiryScheduleOptions extends LifecycleOptions {
  db: Database;
  /** The service's clock: what counts as due. */
  now: () => Date;
  intervalMs: number;
  batchSize?: number;
  logger?: { info(details: object, message: string): void; error(details: object, message: string): void };
}

export interface ExpirySchedule {
  /** Runs the job now (or joins the run in progress); resolves with how many sessions it expired. */
  runNow(): Promise<number>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the expiry job every `intervalMs` until stopped. The timer is unref'd, so it never keeps a process alive;
 * runs never overlap; a run expires batch after batch until nothing is due; a failed run is logged and the
 * next tick tries again.
 */
export function startSessionExpiry({ db, now, intervalMs, batchSize, logger, ...lifecycle }: ExpiryScheduleOptions): ExpirySchedule {
  const size = batchSize ?? DEFAULT_EXPIRY_BATCH_SIZE;
  const job = startPeriodicJob({
    name: 'Expiring verification sessions',
    intervalMs,
    logger,
    run: async () => {
      let total = 0;
      for (;;) {
        const expired = await expireDueSessions(db, now(), { ...lifecycle, batchSize: size });
        total += expired;
        if (expired < size) break;
      }
      if (total > 0) logger?.info({ expired: total }, 'Expired verification sessions');
      return total;
    },
  });
  return { runNow: async () => (await job.runNow()) ?? 0, stop: job.stop };
}
