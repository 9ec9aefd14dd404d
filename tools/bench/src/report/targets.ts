// Issue 7's targets, judged from one run's numbers.

const READ_RATIO_TARGET = 0.6;
const WRITE_RATIO_TARGET = 0.4;
const READ_P99_TARGET_MS = 25;
const REPLAY_SPEEDUP_TARGET = 3;
const RSS_GROWTH_TARGET = 0.1;

export interface EndpointNumbers {
  id: string;
  label: string;
  kind: 'read' | 'write';
  serviceRps: number;
  serviceP99Ms: number;
  sameSqlRps: number;
}

export interface MemoryNumbers {
  service: string;
  /** The read endpoint the long run sent its requests to. */
  endpoint: string;
  /** Right after the service answered its first request. */
  bootKib: number;
  /** After the settling requests, before the counted ones. */
  beforeKib: number;
  /** After each quarter of the counted requests; the last one is `afterKib`. */
  checkpointsKib: number[];
  afterKib: number;
}

export interface TargetVerdict {
  target: string;
  met: boolean;
  detail: string;
}

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;

/** The share of its same-SQL baseline's throughput an endpoint reached. */
export function ratioToBaseline(numbers: Pick<EndpointNumbers, 'serviceRps' | 'sameSqlRps'>): number {
  return numbers.sameSqlRps > 0 ? numbers.serviceRps / numbers.sameSqlRps : 0;
}

export function rssGrowth(memory: MemoryNumbers): number {
  return memory.beforeKib > 0 ? (memory.afterKib - memory.beforeKib) / memory.beforeKib : 0;
}

/** One verdict per target; an endpoint left out of the run is simply not judged. */
export function judgeTargets(
  endpoints: readonly EndpointNumbers[],
  memory: readonly MemoryNumbers[],
  replay?: { firstId: string; replayId: string },
): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  for (const endpoint of endpoints) {
    const ratio = ratioToBaseline(endpoint);
    const wanted = endpoint.kind === 'read' ? READ_RATIO_TARGET : WRITE_RATIO_TARGET;
    verdicts.push({
      target: `${endpoint.label}: >= ${percent(wanted)} of its same-SQL baseline`,
      met: ratio >= wanted,
      detail: percent(ratio),
    });
    if (endpoint.kind === 'read') {
      verdicts.push({
        target: `${endpoint.label}: p99 <= ${READ_P99_TARGET_MS} ms`,
        met: endpoint.serviceP99Ms <= READ_P99_TARGET_MS,
        detail: `${endpoint.serviceP99Ms} ms`,
      });
    }
  }
  const first = endpoints.find((endpoint) => endpoint.id === replay?.firstId);
  const replayed = endpoints.find((endpoint) => endpoint.id === replay?.replayId);
  if (first !== undefined && replayed !== undefined && first.serviceRps > 0) {
    const speedup = replayed.serviceRps / first.serviceRps;
    verdicts.push({
      target: `Idempotent replay >= ${REPLAY_SPEEDUP_TARGET}x the first execution`,
      met: speedup >= REPLAY_SPEEDUP_TARGET,
      detail: `${speedup.toFixed(1)}x`,
    });
  }
  for (const entry of memory) {
    const growth = rssGrowth(entry);
    verdicts.push({
      target: `${entry.service}: RSS growth < ${percent(RSS_GROWTH_TARGET)} over the long run`,
      met: growth < RSS_GROWTH_TARGET,
      detail: `${(growth * 100).toFixed(1)}%`,
    });
  }
  return verdicts;
}
