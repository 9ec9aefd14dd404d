import { startPeriodicJob } from '@platform/http';
import { runUntilNothingDue } from '../index.js';
import type { SmileIdContext } from './context.js';
import { workThroughDueJobs } from './service.js';
import { settleBusinessesOfDirectors } from './settle-directors.js';

const BATCH_SIZE = 10;

export interface SmileIdJobs {
  /** Runs the job loop now (or joins the run in progress); resolves with how many jobs it worked on. */
  runNow(): Promise<number>;
  /** A submission committed: run now, or once more after the run in progress. Never throws or waits. */
  kick(): void;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * The Smile ID job loop: creates the jobs submissions recorded, retries those Smile ID could not take, asks about
 * those without a result after SMILE_ID_RECONCILE_AFTER_MS, and hands to review those past
 * SMILE_ID_FALLBACK_AFTER_MS. Every `intervalMs` when above 0 (0: only when kicked, the other instances poll), and
 * whenever a submission is kicked in. Runs never overlap; a kick during a run makes it go round once more, so a job
 * committed while it ran is not left to the next tick.
 */
export function startSmileIdJobs(ctx: SmileIdContext, { intervalMs }: { intervalMs: number }): SmileIdJobs {
  let again = false;
  const run = async (): Promise<number> => {
    let total = 0;
    do {
      again = false;
      total += (
        await runUntilNothingDue(BATCH_SIZE, (skip) => workThroughDueJobs(ctx, { batchSize: BATCH_SIZE, skip }))
      ).total;
      if (ctx.directors !== undefined) {
        total += (
          await runUntilNothingDue(BATCH_SIZE, (skip) =>
            settleBusinessesOfDirectors(ctx, { batchSize: BATCH_SIZE, skip }),
          )
        ).total;
      }
    } while (again);
    return total;
  };
  const name = 'Working through Smile ID jobs';
  const job =
    intervalMs > 0
      ? startPeriodicJob({ name, intervalMs, run, logger: ctx.logger })
      : onDemand(run, (error) => ctx.logger?.error({ err: error }, `${name} failed`));
  return {
    runNow: async () => (await job.runNow()) ?? 0,
    kick: () => {
      again = true;
      void job.runNow();
    },
    stop: job.stop,
  };
}

/** Like a periodic job without its timer: runs when asked, never two at once, a failure logged. */
function onDemand(run: () => Promise<number>, onFailed: (error: unknown) => void) {
  let running: Promise<number | undefined> | undefined;
  const runNow = (): Promise<number | undefined> => {
    running ??= run()
      .catch((error: unknown) => {
        onFailed(error);
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  return {
    runNow,
    stop: async () => {
      await running;
    },
  };
}
