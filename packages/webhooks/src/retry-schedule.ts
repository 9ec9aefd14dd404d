const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * When each try is made, counted from the previous failed try (docs/decisions.md#callback-retries): the first at once,
 * the tenth and last about three days (75.6 h) after the event.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [
  0,
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

export const MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length;

/** Each wait is moved by up to this fraction either way, so events that failed together do not retry together. */
export const JITTER = 0.1;

/**
 * How long to wait after failed try number `attemptsMade` (1-based) before the next, or null when that was the
 * last. `random` returns a number in [0, 1), like Math.random.
 */
export function retryDelayMs(attemptsMade: number, random: () => number = Math.random): number | null {
  const base = RETRY_SCHEDULE_MS[attemptsMade];
  if (base === undefined) return null;
  return Math.round(base * (1 + (random() * 2 - 1) * JITTER));
}
