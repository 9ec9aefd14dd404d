import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { CpuMeasurement } from '../cpu-per-request.js';
import type { NamedRatio } from './comparison.js';
import type { EndpointRow, RunDescription, SkippedEndpoint } from './markdown.js';
import type { MemoryNumbers, TargetVerdict } from './targets.js';

// A run's results as JSON, written beside its Markdown (docs/benchmarks.json beside docs/benchmarks.md): everything
// the Markdown shows, as numbers, for the next run to compare with and for anything else that reads them.

// /2: each row has its CPU per request (`cpu`), verdicts a `status` (met, not met, not measured) instead of `met`.
const FORMAT = 'platform-bench-results/2';
/** Formats whose `ratios` read the same, so a run compares with results written before the format changed. */
const COMPARABLE_FORMATS: readonly string[] = [FORMAT, 'platform-bench-results/1'];

export interface BenchResults {
  format: typeof FORMAT;
  /** When the run ended (ISO 8601). */
  date: string;
  run: Omit<RunDescription, 'date'>;
  /** Each row; `cpu` is null for a row whose CPU was not sampled, so the file says so rather than leaving it out. */
  rows: Array<Omit<EndpointRow, 'cpu'> & { cpu: CpuMeasurement | null }>;
  skipped: SkippedEndpoint[];
  memory: MemoryNumbers[];
  /** Every ratio of the run by a stable key: what the next run compares with. */
  ratios: NamedRatio[];
  verdicts: TargetVerdict[];
}

export function resultsOf(
  run: RunDescription,
  parts: Omit<BenchResults, 'format' | 'date' | 'run' | 'rows'> & { rows: readonly EndpointRow[] },
): BenchResults {
  const { date, ...rest } = run;
  const rows = parts.rows.map((row) => ({ ...row, cpu: row.cpu ?? null }));
  return { format: FORMAT, date: date.toISOString(), run: rest, ...parts, rows };
}

export function writeResultsJson(file: string, results: BenchResults): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** What a run reads of earlier results to compare with: when, how it was made, and its ratios. */
export type PreviousResults = Pick<BenchResults, 'date' | 'ratios'> & {
  format: string;
  /** `cpu` is absent from results written before the CPU samples (format /1). */
  run: Omit<RunDescription, 'date' | 'cpu'> & Partial<Pick<RunDescription, 'cpu'>>;
};

/**
 * The results in `file`; undefined when there is no such file. Throws for a file that is not results of this
 * format or one whose ratios read the same, rather than comparing with something else.
 */
export function readResultsJson(file: string): PreviousResults | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PreviousResults>;
  if (
    typeof parsed.format !== 'string' ||
    !COMPARABLE_FORMATS.includes(parsed.format) ||
    !Array.isArray(parsed.ratios) ||
    typeof parsed.date !== 'string'
  ) {
    throw new Error(`${file} is not a bench results file (${FORMAT})`);
  }
  return parsed as PreviousResults;
}

/**
 * What differs in how two runs were made (connections, time per row, rounds, machine), in a sentence, or undefined
 * when nothing does: ratios of runs made differently compare less well.
 */
export function settingsCaveat(previous: PreviousResults, current: Omit<RunDescription, 'date'>): string | undefined {
  const differences: string[] = [];
  const compare = (what: string, before: unknown, now: unknown) => {
    if (before !== now) differences.push(`${what} ${String(before)} then, ${String(now)} now`);
  };
  compare('connections', previous.run.connections, current.connections);
  compare('seconds per row', previous.run.durationS, current.durationS);
  compare('rounds', previous.run.rounds, current.rounds);
  if (previous.run.cpu !== undefined) {
    compare('requests per CPU sample', previous.run.cpu.requests, current.cpu.requests);
    compare('connections of the CPU samples', previous.run.cpu.connections, current.cpu.connections);
  }
  compare('CPUs', previous.run.machine.cpuCount, current.machine.cpuCount);
  compare('CPU', previous.run.machine.cpu, current.machine.cpu);
  return differences.length === 0 ? undefined : `The runs were made differently (${differences.join('; ')}).`;
}
