import { describe, expect, it } from 'vitest';
import { JITTER, MAX_ATTEMPTS, RETRY_SCHEDULE_MS, retryDelayMs } from './retry-schedule.js';

const H = 3_600_000;

describe('retryDelayMs', () => {
  it('follows 0, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h', () => {
    expect(RETRY_SCHEDULE_MS).toEqual([0, 5_000, 300_000, 1_800_000, 2 * H, 5 * H, 10 * H, 14 * H, 20 * H, 24 * H]);
    expect(MAX_ATTEMPTS).toBe(10);
    // random 0.5 is the middle of the jitter band: no change.
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempt) => retryDelayMs(attempt, () => 0.5))).toEqual(
      RETRY_SCHEDULE_MS.slice(1),
    );
  });

  it('moves each wait by at most 10% either way', () => {
    expect(JITTER).toBe(0.1);
    expect(retryDelayMs(1, () => 0)).toBe(4_500);
    expect(retryDelayMs(1, () => 0.999_999)).toBe(5_500);
    expect(retryDelayMs(9, () => 0)).toBe(24 * H * 0.9);
    for (let i = 0; i < 200; i++) {
      const delay = retryDelayMs(3)!;
      expect(delay).toBeGreaterThanOrEqual(1_800_000 * 0.9);
      expect(delay).toBeLessThanOrEqual(1_800_000 * 1.1);
    }
  });

  it('gives up after the tenth try', () => {
    expect(retryDelayMs(10, () => 0.5)).toBeNull();
    expect(retryDelayMs(11, () => 0.5)).toBeNull();
  });
});
