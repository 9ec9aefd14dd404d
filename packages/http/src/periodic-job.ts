/** The logging a periodic job needs; a pino or Fastify logger fits. */
export interface PeriodicJobLogger {
  error(details: Record<string, unknown>, message: string): void;
}

export interface PeriodicJobOptions<T> {
  /** What the job does, as its failure log says it: `${name} failed`. */
  name: string;
  intervalMs: number;
  /** One run of the job. A rejection is logged, and the next tick tries again. */
  run: () => Promise<T>;
  logger?: PeriodicJobLogger | undefined;
}

export interface PeriodicJob<T> {
  /** Runs the job now, or joins the run in progress; resolves with its result, or undefined when it failed. */
  runNow(): Promise<T | undefined>;
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs `run` every `intervalMs` until stopped. The timer is unref'd, so it never keeps a process alive; runs
 * never overlap (a tick during a run joins it); a failed run is logged with the job's name and never rejects.
 */
export function startPeriodicJob<T>({ name, intervalMs, run, logger }: PeriodicJobOptions<T>): PeriodicJob<T> {
  if (!Number.isFinite(intervalMs) || intervalMs <= 0) throw new RangeError('intervalMs must be a positive number');
  let running: Promise<T | undefined> | undefined;

  const runNow = (): Promise<T | undefined> => {
    // Called from an async function, so a run that throws before its first await is logged the same way.
    running ??= (async () => run())()
      .catch((error: unknown) => {
        logger?.error({ err: error }, `${name} failed`);
        return undefined;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  const timer = setInterval(() => void runNow(), intervalMs);
  timer.unref();
  return {
    runNow,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
