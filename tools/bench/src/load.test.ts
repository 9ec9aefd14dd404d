import { describe, expect, it } from 'vitest';
import { combineRounds, type LoadResult } from './load.js';

const round = (
  requestsPerSecond: number,
  p50Ms: number,
  p99Ms: number,
  extra: Partial<LoadResult> = {},
): LoadResult => ({
  requestsPerSecond,
  p50Ms,
  p99Ms,
  total: 100,
  failures: 0,
  statusCounts: { '200': 100 },
  ...extra,
});

describe('combineRounds', () => {
  it('averages throughput, takes the median round latencies, and adds up requests, failures and statuses', () => {
    const combined = combineRounds([
      round(3000, 12, 40),
      round(4000, 10, 22, { failures: 2, statusCounts: { '200': 98, '500': 2 } }),
      round(3500, 11, 25),
    ]);
    expect(combined).toEqual({
      requestsPerSecond: 3500,
      p50Ms: 11,
      p99Ms: 25,
      total: 300,
      failures: 2,
      statusCounts: { '200': 298, '500': 2 },
    });
  });

  it('takes the middle of an even number of rounds, and one round as it is', () => {
    expect(combineRounds([round(10, 1, 20), round(30, 3, 30)]).p99Ms).toBe(25);
    expect(combineRounds([round(10, 1, 20)])).toEqual(round(10, 1, 20));
  });

  it('refuses no rounds at all', () => {
    expect(() => combineRounds([])).toThrow(/at least one round/);
  });
});
