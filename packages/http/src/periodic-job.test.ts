import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob } from './periodic-job.js';

const MINUTE = 60_000;

/** A promise the test settles when it wants to. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve;
    reject = onReject;
  });
  return { promise, resolve, reject };
}

function recordingLogger() {
  const errors: Array<{ details: Record<string, unknown>; message: string }> = [];
  return { errors, error: (details: Record<string, unknown>, message: string) => errors.push({ details, message }) };
}

describe('startPeriodicJob', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('runs on every tick until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let runs = 0;
    const job = startPeriodicJob({ name: 'Counting', intervalMs: MINUTE, run: async () => ++runs });

    await vi.advanceTimersByTimeAsync(MINUTE - 1);
    expect(runs).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(2 * MINUTE);
    expect(runs).toBe(3);

    await job.stop();
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    expect(runs).toBe(3);
  });

  it('resolves runNow with the result of the run', async () => {
    const job = startPeriodicJob({ name: 'Answering', intervalMs: MINUTE, run: async () => 42 });
    expect(await job.runNow()).toBe(42);
    await job.stop();
  });

  it('never overlaps runs: runNow and ticks during a run join it', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const gate = deferred<string>();
    let started = 0;
    const job = startPeriodicJob({
      name: 'Slow',
      intervalMs: MINUTE,
      run: () => {
        started += 1;
        return gate.promise;
      },
    });

    const first = job.runNow();
    const second = job.runNow();
    await vi.advanceTimersByTimeAsync(3 * MINUTE);
    expect(started).toBe(1);

    gate.resolve('done');
    expect(await first).toBe('done');
    expect(await second).toBe('done');
    // Once the run is over, the next call starts another.
    await job.runNow();
    expect(started).toBe(2);
    await job.stop();
  });

  it('logs a failed run with the job name, resolves undefined, and runs again on the next tick', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const logger = recordingLogger();
    const failure = new Error('database unavailable');
    let runs = 0;
    const job = startPeriodicJob({
      name: 'Purging old rows',
      intervalMs: MINUTE,
      logger,
      run: async () => {
        runs += 1;
        if (runs === 1) throw failure;
        return runs;
      },
    });

    expect(await job.runNow()).toBeUndefined();
    expect(logger.errors).toEqual([{ details: { err: failure }, message: 'Purging old rows failed' }]);
    await vi.advanceTimersByTimeAsync(MINUTE);
    expect(runs).toBe(2);
    expect(logger.errors).toHaveLength(1);
    await job.stop();
  });

  it('logs a run that throws before it returns a promise', async () => {
    const logger = recordingLogger();
    const job = startPeriodicJob<number>({
      name: 'Throwing',
      intervalMs: MINUTE,
      logger,
      run: () => {
        throw new Error('bad input');
      },
    });
    expect(await job.runNow()).toBeUndefined();
    expect(logger.errors.map((entry) => entry.message)).toEqual(['Throwing failed']);
    await job.stop();
  });

  it('waits in stop for the run in progress', async () => {
    const gate = deferred<void>();
    let finished = false;
    const job = startPeriodicJob({
      name: 'Finishing',
      intervalMs: MINUTE,
      run: async () => {
        await gate.promise;
        finished = true;
      },
    });
    void job.runNow();
    const stopped = job.stop().then(() => finished);
    gate.resolve();
    expect(await stopped).toBe(true);
  });

  it('does not keep the process alive', async () => {
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    const job = startPeriodicJob({ name: 'Idle', intervalMs: MINUTE, run: async () => undefined });
    const timer = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    await job.stop();
  });

  it.each([0, -5, Number.NaN, Number.POSITIVE_INFINITY])('refuses an interval of %s', (intervalMs) => {
    expect(() => startPeriodicJob({ name: 'Never', intervalMs, run: async () => undefined })).toThrow(RangeError);
  });
});
