import type { Database, Transaction } from '@platform/db';

// How the scheduled session jobs (expiry, document retention) work through what is due: one session per
// transaction, claimed with FOR UPDATE SKIP LOCKED by `claim`, so several instances never take the same one and no
// transaction holds many locks at once; a session whose work fails is rolled back, reported and passed over, so it
// cannot stop the sessions behind it (it stays due, and a later run tries it again). Failing to claim at all (the
// database is down) ends the call.

export interface DueSessionWork {
  /** At most this many sessions per call. */
  batchSize: number;
  /** Sessions to pass over; the ids of sessions whose work fails are added. */
  skip: Set<string>;
  /** The next due session not in `skip`, locked in `tx`; undefined when none is left. */
  claim(tx: Transaction, skip: Set<string>): Promise<string | undefined>;
  /** What the job does to a claimed session, in the claim's transaction. */
  work(tx: Transaction, sessionId: string): Promise<void>;
  /** A session whose work failed (rolled back, passed over). */
  onFailed(error: unknown, sessionId: string): void;
  /** A session done, after its transaction committed. */
  onDone?(sessionId: string): void;
}

/** Works through at most `batchSize` due sessions and returns how many it did. */
export async function workThroughDueSessions(db: Database, job: DueSessionWork): Promise<number> {
  const { batchSize, skip } = job;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError('batchSize must be a positive integer');
  let done = 0;
  while (done < batchSize) {
    let claimed: string | undefined;
    try {
      const worked = await db.transaction(async (tx) => {
        const due = await job.claim(tx, skip);
        if (due === undefined) return false;
        claimed = due;
        await job.work(tx, due);
        return true;
      });
      if (!worked) break;
      done += 1;
      if (claimed !== undefined) job.onDone?.(claimed);
    } catch (error) {
      if (claimed === undefined) throw error;
      skip.add(claimed);
      job.onFailed(error, claimed);
    }
  }
  return done;
}

/**
 * One scheduled run: batch after batch until a batch comes back short, sharing one `skip` set so a run tries each
 * failing session once. Resolves with the total and the sessions that failed.
 */
export async function runUntilNothingDue(
  batchSize: number,
  batch: (skip: Set<string>) => Promise<number>,
): Promise<{ total: number; failed: number }> {
  let total = 0;
  const skip = new Set<string>();
  for (;;) {
    const done = await batch(skip);
    total += done;
    if (done < batchSize) break;
  }
  return { total, failed: skip.size };
}
