import { readFileSync } from 'node:fs';
import { combineRounds, type LoadResult, type LoadTarget, median, sendAmount } from './load.js';

// The CPU time a process spends per request, read from /proc/<pid>/stat around a counted number of requests: what
// the bench judges each row by (docs/decisions.md#bench-targets-judged-by-cpu-per-request). Unlike throughput, a
// process's own CPU time does not count the time it waited for a core, so it moves little when other work shares the
// machine.

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface CpuSettings {
  /** Requests per sample. */
  requests: number;
  /** Samples per side, taken in turns with the baseline's. */
  samples: number;
  connections: number;
  /** Requests sent to each side before the first sample (JIT, pool, caches); 0 for none. */
  warmupRequests: number;
}

/** One side (the service or its same-SQL baseline) of a row's CPU measurement. */
export interface CpuSide {
  /** Microseconds of CPU (user + system) per request of each sample. */
  samplesUs: number[];
  /** The median sample: what the row is judged by. */
  usPerRequest: number;
  /** The samples' latencies at `connections`: the median of their p50s and of their p99s, every request and failure. */
  latency: LoadResult;
}

export interface CpuMeasurement {
  connections: number;
  requestsPerSample: number;
  service: CpuSide;
  sameSql: CpuSide;
}

/** One sample: the CPU time a process spent while it answered the sample's requests, and their latencies. */
export interface CpuSample {
  cpuMs: number;
  result: LoadResult;
}

export interface CpuSubject {
  target: LoadTarget;
  pid: number;
}

/**
 * User plus system time in ms from the text of /proc/<pid>/stat. The fields are counted from the last `)`: the
 * process name before it, in parentheses, may itself hold spaces and parentheses.
 */
export function cpuMsOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of the line: the 12th and 13th after the name (state is the first).
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`Not a /proc/<pid>/stat line: ${stat}`);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

function cpuMsOf(pid: number): number {
  return cpuMsOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
}

/** The side's numbers from its samples: microseconds per request of each, the median, and the latencies. */
export function cpuSideOf(samples: readonly CpuSample[], requests: number): CpuSide {
  if (samples.length === 0) throw new Error('cpuSideOf needs at least one sample');
  const samplesUs = samples.map((sample) => (sample.cpuMs * 1000) / requests);
  return { samplesUs, usPerRequest: median(samplesUs), latency: combineRounds(samples.map((sample) => sample.result)) };
}

/**
 * The CPU the service and its same-SQL baseline spend per request of one row, their samples taken in turns (the
 * baseline first, as in the bench's rounds: writes leave rows behind, so the service meets at least as much data).
 * Failed requests are counted, not thrown: a row with failures is reported as not measured (report/targets.ts).
 */
export async function measureCpuPerRequest(
  service: CpuSubject,
  sameSql: CpuSubject,
  settings: CpuSettings,
): Promise<CpuMeasurement> {
  if (settings.warmupRequests > 0) {
    await sendAmount(sameSql.target, settings.connections, settings.warmupRequests);
    await sendAmount(service.target, settings.connections, settings.warmupRequests);
  }
  const sample = async (subject: CpuSubject): Promise<CpuSample> => {
    const before = cpuMsOf(subject.pid);
    const result = await sendAmount(subject.target, settings.connections, settings.requests);
    return { cpuMs: cpuMsOf(subject.pid) - before, result };
  };
  const samples: Record<'service' | 'sameSql', CpuSample[]> = { service: [], sameSql: [] };
  for (let index = 0; index < settings.samples; index += 1) {
    samples.sameSql.push(await sample(sameSql));
    samples.service.push(await sample(service));
  }
  return {
    connections: settings.connections,
    requestsPerSample: settings.requests,
    service: cpuSideOf(samples.service, settings.requests),
    sameSql: cpuSideOf(samples.sameSql, settings.requests),
  };
}
