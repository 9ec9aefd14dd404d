import autocannon from 'autocannon';
import type { BenchRequest } from './endpoints.js';

export interface LoadSettings {
  connections: number;
  /** Seconds of the measured run. */
  durationS: number;
  /** Seconds of the unmeasured run just before it (JIT, pool connections, caches). */
  warmupS: number;
}

export interface LoadResult {
  /** Successful (2xx) answers per second over the measured run. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  total: number;
  /** Answers that were not 2xx, and connection errors or timeouts: any of these makes the row suspect. */
  failures: number;
  statusCounts: Record<string, number>;
}

export interface LoadTarget {
  baseUrl: string;
  /** The next request; called once per request when `varies`, once in all otherwise. */
  request: () => BenchRequest;
  varies: boolean;
}

/** Warms up, then measures `target` at a fixed concurrency for a fixed time. */
export async function measure(target: LoadTarget, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmupS > 0) await run(target, { connections: settings.connections, duration: settings.warmupS });
  return run(target, { connections: settings.connections, duration: settings.durationS });
}

/** Sends exactly `amount` requests (the memory run). */
export async function sendAmount(target: LoadTarget, connections: number, amount: number): Promise<LoadResult> {
  return run(target, { connections, amount });
}

async function run(
  target: LoadTarget,
  limits: { connections: number; duration?: number; amount?: number },
): Promise<LoadResult> {
  const first = target.request();
  const request: autocannon.Request = {
    method: first.method,
    path: first.path,
    headers: first.headers,
    ...(first.body === undefined ? {} : { body: first.body }),
    ...(target.varies
      ? {
          setupRequest: (current: autocannon.Request) => {
            const next = target.request();
            return {
              ...current,
              path: next.path,
              headers: next.headers,
              ...(next.body === undefined ? {} : { body: next.body }),
            };
          },
        }
      : {}),
  };
  const result = await autocannon({
    url: target.baseUrl,
    connections: limits.connections,
    ...(limits.amount === undefined ? { duration: limits.duration ?? 10 } : { amount: limits.amount }),
    requests: [request],
    timeout: 30,
  });
  const statusCounts: Record<string, number> = {};
  for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) statusCounts[status] = stats.count ?? 0;
  return {
    requestsPerSecond: result['2xx'] / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    total: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    statusCounts,
  };
}

/**
 * One result from several rounds of the same target: throughput over all of them (the rounds are equally
 * long), the median of their p50s and p99s, and every request and failure counted. Rounds of a service and its
 * baselines taken in turns see the same drift of a shared machine, so their ratio is steadier than that of
 * one long run each.
 */
export function combineRounds(rounds: readonly LoadResult[]): LoadResult {
  if (rounds.length === 0) throw new Error('combineRounds needs at least one round');
  const statusCounts: Record<string, number> = {};
  for (const round of rounds) {
    for (const [status, count] of Object.entries(round.statusCounts))
      statusCounts[status] = (statusCounts[status] ?? 0) + count;
  }
  return {
    requestsPerSecond: rounds.reduce((sum, round) => sum + round.requestsPerSecond, 0) / rounds.length,
    p50Ms: median(rounds.map((round) => round.p50Ms)),
    p99Ms: median(rounds.map((round) => round.p99Ms)),
    total: rounds.reduce((sum, round) => sum + round.total, 0),
    failures: rounds.reduce((sum, round) => sum + round.failures, 0),
    statusCounts,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
