// The targets, judged from one run's numbers (docs/decisions.md#bench-targets-judged-by-cpu-per-request): every row
// by the CPU the service spends per request against its same-SQL baseline's, and the session creates' statements,
// the idempotent replay and each service's memory. Throughput is reported beside them and not judged: what it
// reaches on a shared machine is set by the machine as much as by the service.

import { floorsOfHalves } from '../memory-sampling.js';

/** Service CPU per request at most this many times its same-SQL baseline's, on every row. */
export const CPU_RATIO_TARGET = 2;
/** Issue 21: session creates' statements per request. */
const CREATE_STATEMENTS_TARGET = 6;
const REPLAY_SPEEDUP_TARGET = 3;
const RSS_GROWTH_TARGET = 0.1;

/** A row's CPU per request on each side, and the latencies at the connections it was measured with. */
export interface CpuNumbers {
  connections: number;
  serviceUsPerRequest: number;
  sameSqlUsPerRequest: number;
  serviceP99Ms: number;
  sameSqlP99Ms: number;
  /** Requests that failed during the samples, on either side: the measurement then counts the failures' work too. */
  failures: number;
}

export interface EndpointNumbers {
  id: string;
  label: string;
  kind: 'read' | 'write';
  /** SQL statements per request, as the recording client counted them (BEGIN and COMMIT included). */
  statements: number;
  serviceRps: number;
  serviceP99Ms: number;
  sameSqlRps: number;
  sameSqlP99Ms: number;
  /** Undefined when the run took no CPU samples (BENCH_CPU_SAMPLES=0). */
  cpu: CpuNumbers | undefined;
}

export interface MemoryNumbers {
  service: string;
  /** The read endpoint the long run sent its requests to. */
  endpoint: string;
  /** Right after the service answered its first request. */
  bootKib: number;
  /**
   * Each quarter of the counted requests (after the settling ones): the lowest and highest RSS read while it ran
   * (memory-sampling.ts). A leak raises the floors; collections move the peaks.
   */
  quarters: Array<{ floorKib: number; peakKib: number }>;
}

/** A target not measured is neither met nor missed: the report says so, and why, instead of calling it met. */
export type TargetStatus = 'met' | 'not met' | 'not measured';

export interface TargetVerdict {
  target: string;
  status: TargetStatus;
  /** What was reached, or why nothing was measured. */
  detail: string;
}

/** A row of the run that was not measured at all (its service did not answer its request). */
export interface UnmeasuredRow {
  label: string;
  reason: string;
}

/** Which rows the targets that name rows apply to, by endpoint id. */
export interface TargetPlan {
  /** Session creates (issue 21): at most 6 statements per request. */
  creates: readonly string[];
  /** An idempotent replay and the first execution it is compared with (issue 7). */
  replay?: { firstId: string; replayId: string };
}

const percent = (value: number) => `${(value * 100).toFixed(0)}%`;
const microseconds = (value: number) => `${Math.round(value).toLocaleString('en-US')} µs`;

/** The share of its same-SQL baseline's throughput an endpoint reached (reported, not judged). */
export function ratioToBaseline(numbers: Pick<EndpointNumbers, 'serviceRps' | 'sameSqlRps'>): number {
  return numbers.sameSqlRps > 0 ? numbers.serviceRps / numbers.sameSqlRps : 0;
}

/** The service's CPU per request over its same-SQL baseline's; undefined when either was not measured. */
export function cpuRatio(cpu: CpuNumbers | undefined): number | undefined {
  if (cpu === undefined || !(cpu.sameSqlUsPerRequest > 0) || !(cpu.serviceUsPerRequest > 0)) return undefined;
  return cpu.serviceUsPerRequest / cpu.sameSqlUsPerRequest;
}

/** The lowest reading of the second half of the counted requests against the lowest of the first. */
export function rssGrowth(memory: MemoryNumbers): number {
  const { beforeKib, afterKib } = floorsOfHalves(memory.quarters);
  return beforeKib > 0 ? (afterKib - beforeKib) / beforeKib : 0;
}

const cpuTargetOf = (label: string) =>
  `${label}: service CPU per request <= ${CPU_RATIO_TARGET.toFixed(1)}x its same-SQL baseline's`;

/** The CPU target of one row: met, not met, or not measured with the reason. */
function judgeCpu(endpoint: Pick<EndpointNumbers, 'label' | 'statements' | 'cpu'>): TargetVerdict {
  const target = cpuTargetOf(endpoint.label);
  const { cpu } = endpoint;
  if (cpu === undefined) return { target, status: 'not measured', detail: 'no CPU samples were taken' };
  if (cpu.failures > 0)
    return { target, status: 'not measured', detail: `${cpu.failures} requests failed during the CPU samples` };
  const exact = cpuRatio(cpu);
  if (exact === undefined)
    return {
      target,
      status: 'not measured',
      detail: `no CPU time was counted (service ${microseconds(cpu.serviceUsPerRequest)}, same-SQL ${microseconds(cpu.sameSqlUsPerRequest)})`,
    };
  // Judged as shown, to the hundredth: a verdict never disagrees with the figure beside it.
  const ratio = Math.round(exact * 100) / 100;
  return {
    target,
    status: ratio <= CPU_RATIO_TARGET ? 'met' : 'not met',
    detail:
      `${ratio.toFixed(2)}x: ${microseconds(cpu.serviceUsPerRequest)} against ${microseconds(cpu.sameSqlUsPerRequest)}; ` +
      `${endpoint.statements} statement${endpoint.statements === 1 ? '' : 's'} per request; ` +
      `p99 at ${cpu.connections} connections ${cpu.serviceP99Ms} ms against ${cpu.sameSqlP99Ms} ms`,
  };
}

/**
 * One verdict per target. A row left out of the run (BENCH_ENDPOINTS) is not judged; a row the run could not
 * measure (`unmeasured`) is judged "not measured".
 */
export function judgeTargets(
  endpoints: readonly EndpointNumbers[],
  memory: readonly MemoryNumbers[],
  plan: TargetPlan,
  unmeasured: readonly UnmeasuredRow[] = [],
): TargetVerdict[] {
  const verdicts: TargetVerdict[] = [];
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]));
  for (const endpoint of endpoints) verdicts.push(judgeCpu(endpoint));
  for (const row of unmeasured)
    verdicts.push({ target: cpuTargetOf(row.label), status: 'not measured', detail: `not run: ${row.reason}` });
  for (const id of plan.creates) {
    const create = byId.get(id);
    if (create === undefined) continue;
    verdicts.push({
      target: `${create.label}: at most ${CREATE_STATEMENTS_TARGET} statements per request`,
      status: create.statements <= CREATE_STATEMENTS_TARGET ? 'met' : 'not met',
      detail: `${create.statements}`,
    });
  }
  const first = plan.replay === undefined ? undefined : byId.get(plan.replay.firstId);
  const replayed = plan.replay === undefined ? undefined : byId.get(plan.replay.replayId);
  if (first !== undefined && replayed !== undefined) {
    const target = `Idempotent replay >= ${REPLAY_SPEEDUP_TARGET}x the first execution`;
    if (first.serviceRps > 0) {
      const speedup = replayed.serviceRps / first.serviceRps;
      verdicts.push({
        target,
        status: speedup >= REPLAY_SPEEDUP_TARGET ? 'met' : 'not met',
        detail: `${speedup.toFixed(1)}x`,
      });
    } else verdicts.push({ target, status: 'not measured', detail: 'the first execution answered nothing' });
  }
  for (const entry of memory) {
    const growth = rssGrowth(entry);
    verdicts.push({
      target: `${entry.service}: RSS growth < ${percent(RSS_GROWTH_TARGET)} over the long run`,
      status: growth < RSS_GROWTH_TARGET ? 'met' : 'not met',
      detail: `${(growth * 100).toFixed(1)}%`,
    });
  }
  return verdicts;
}
