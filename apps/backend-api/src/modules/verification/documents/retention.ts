import type { Database } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { startPeriodicJob } from '@platform/http';
import type { VerificationRetentionBounds } from '@platform/organizations';
import { finalStatuses } from '@platform/verification-lifecycle';
import { runUntilNothingDue, workThroughDueSessions } from '../index.js';
import { claimSessionDueForErasure } from './repository.js';
import { erasePersonalDataIn } from './service.js';

// The retention job (docs/decisions.md#document-retention): documents and submitted details are deleted
// after a session's final status, once its organization's period has passed (its own, or the platform's default:
// docs/decisions.md#retention-per-organization), through the same erasure as DELETE .../personal-data.

const DAY = 24 * 60 * 60 * 1000;
const DEFAULT_RETENTION_BATCH_SIZE = 50;

export interface RetentionLogger {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
  debug(details: object, message: string): void;
}

export interface RetentionOptions {
  retention: VerificationRetentionBounds;
  batchSize?: number;
  /** Counts at info; a session id only at debug (erased) or error (failed), never anything about the person. */
  logger?: RetentionLogger | undefined;
  /**
   * Sessions to pass over; the ids of sessions that fail in this call are added. A scheduled run shares one set
   * across its batches, so it tries each failing session once.
   */
  skip?: Set<string>;
}

/**
 * The time a session must have reached its final status by for its personal data to be due at `now` under the
 * shortest period allowed: no session final later can be due, so the due query's index scan stops there.
 */
function earliestCutoff(now: Date, retention: VerificationRetentionBounds): Date {
  return new Date(now.getTime() - retention.minDays * DAY);
}

/**
 * Erases the personal data of at most `batchSize` sessions final for their organization's period or longer at `now`, and returns
 * how many it erased. Each session is claimed with FOR UPDATE SKIP LOCKED and erased in that transaction, so
 * several instances (and a DELETE racing the job) never erase one session twice: the other waits for, or skips, the
 * lock, and then finds it marked. A session whose erasure fails (the storage is down) is rolled back, logged and
 * passed over; it stays due. Failing to claim at all (the database is down) ends the call.
 */
export async function eraseExpiredPersonalData(
  db: Database,
  vault: DocumentVault,
  now: Date,
  options: RetentionOptions,
): Promise<number> {
  const { retention, batchSize = DEFAULT_RETENTION_BATCH_SIZE, logger, skip = new Set<string>() } = options;
  const finalBefore = earliestCutoff(now, retention);
  return workThroughDueSessions(db, {
    batchSize,
    skip,
    claim: (tx, passOver) =>
      claimSessionDueForErasure(tx, { statuses: finalStatuses, now, finalBefore, retention, skip: passOver }),
    work: async (tx, sessionId) => {
      await erasePersonalDataIn(tx, vault, { sessionId, now });
    },
    onDone: (sessionId) =>
      logger?.debug({ sessionId }, 'Erased the personal data of a verification session (retention)'),
    onFailed: (error, sessionId) =>
      logger?.error(
        { err: error, sessionId },
        'Could not erase the personal data of a verification session; passing over it',
      ),
  });
}

export interface RetentionScheduleOptions {
  db: Database;
  vault: DocumentVault;
  /** The service's clock: what counts as due. */
  now: () => Date;
  intervalMs: number;
  retention: VerificationRetentionBounds;
  batchSize?: number;
  logger?: RetentionLogger;
}

export interface RetentionSchedule {
  /** Runs the job now (or joins the run in progress); resolves with how many sessions it erased. */
  runNow(): Promise<number>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the retention job every `intervalMs` until stopped (an unref'd timer; runs never overlap): batch after batch
 * until nothing is due, then one info line with the count. A run that fails as a whole is logged; the next tick
 * tries again.
 */
export function startDocumentRetention({
  db,
  vault,
  now,
  intervalMs,
  retention,
  batchSize,
  logger,
}: RetentionScheduleOptions): RetentionSchedule {
  const size = batchSize ?? DEFAULT_RETENTION_BATCH_SIZE;
  const job = startPeriodicJob({
    name: 'Erasing verification personal data past retention',
    intervalMs,
    logger,
    run: async () => {
      const { total, failed } = await runUntilNothingDue(size, (skip) =>
        eraseExpiredPersonalData(db, vault, now(), { retention, batchSize: size, logger, skip }),
      );
      if (total > 0 || failed > 0) {
        logger?.info({ erased: total, failed }, 'Erased verification personal data past retention');
      }
      return total;
    },
  });
  return { runNow: async () => (await job.runNow()) ?? 0, stop: job.stop };
}
