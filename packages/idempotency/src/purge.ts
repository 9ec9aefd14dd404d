import type { DatabaseExecutor } from '@platform/db';
import { startPeriodicJob } from '@platform/http/periodic-job';
import { deleteExpiredBatch } from './repository.js';

export const DEFAULT_PURGE_BATCH_SIZE = 500;

/**
 * Deletes the idempotency records whose 24 hours are over at `now` (expires_at <= now), a batch per
 * statement so no statement holds many row locks. Rows another purge is deleting are skipped, so every
 * instance of a service may run this at once. Returns how many records it deleted.
 */
export async function purgeExpiredIdempotencyRecords(
  db: DatabaseExecutor,
  now: Date,
  { batchSize = DEFAULT_PURGE_BATCH_SIZE }: { batchSize?: number } = {},
): Promise<number> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  let purged = 0;
  for (;;) {
    const deleted = await deleteExpiredBatch(db, now, batchSize);
    purged += deleted;
    if (deleted < batchSize) return purged;
  }
}

export interface PurgeScheduleOptions {
  db: DatabaseExecutor;
  /** The service's clock: what counts as expired. */
  now: () => Date;
  intervalMs: number;
  batchSize?: number;
  logger?: { info(details: object, message: string): void; error(details: object, message: string): void };
}

export interface PurgeSchedule {
  /** Runs a purge now (or joins the one running) and resolves with how many records it deleted. */
  runNow(): Promise<number>;
  /** Stops the timer and waits for a purge in progress. */
  stop(): Promise<void>;
}

/**
 * Purges expired idempotency records every `intervalMs`. The timer is unref'd, so it never keeps a process
 * alive; runs never overlap; a failed run is logged and the next tick tries again.
 */
export function startIdempotencyPurge({ db, now, intervalMs, batchSize, logger }: PurgeScheduleOptions): PurgeSchedule {
  const job = startPeriodicJob({
    name: 'Purging expired idempotency records',
    intervalMs,
    logger,
    run: async () => {
      const purged = await purgeExpiredIdempotencyRecords(db, now(), batchSize === undefined ? {} : { batchSize });
      if (purged > 0) logger?.info({ purged }, 'Purged expired idempotency records');
      return purged;
    },
  });
  return { runNow: async () => (await job.runNow()) ?? 0, stop: job.stop };
}
