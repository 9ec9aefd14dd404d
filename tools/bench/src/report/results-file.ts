import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { NamedRatio } from './comparison.js';
import type { EndpointRow, RunDescription, SkippedEndpoint } from './markdown.js';
import type { MemoryNumbers, TargetVerdict } from './targets.js';

// A run's results as JSON, written beside its Markdown (docs/benchmarks.json beside docs/benchmarks.md): everything
// the Markdown shows, as numbers, for the next run to compare with and for anything else that reads them.

const FORMAT = 'platform-bench-results/1';

export interface BenchResults {
  format: typeof FORMAT;
  /** When the run ended (ISO 8601). */
  date: string;
  run: Omit<RunDescription, 'date'>;
  rows: EndpointRow[];
  skipped: SkippedEndpoint[];
  memory: MemoryNumbers[];
  /** Every ratio of the run by a stable key: what the next run compares with. */
  ratios: NamedRatio[];
  verdicts: TargetVerdict[];
}

export function resultsOf(run: RunDescription, parts: Omit<BenchResults, 'format' | 'date' | 'run'>): BenchResults {
  const { date, ...rest } = run;
  return { format: FORMAT, date: date.toISOString(), run: rest, ...parts };
}

export function writeResultsJson(file: string, results: BenchResults): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/**
 * The results in `file`; undefined when there is no such file. Throws for a file that is not results of this
 * format, rather than comparing with something else.
 */
export function readResultsJson(file: string): BenchResults | undefined {
  if (!existsSync(file)) return undefined;
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<BenchResults>;
  if (parsed.format !== FORMAT || !Array.isArray(parsed.ratios) || typeof parsed.date !== 'string') {
    throw new Error(`${file} is not a bench results file (${FORMAT})`);
  }
  return parsed as BenchResults;
}

/**
 * What differs in how two runs were made (connections, time per row, rounds, machine), in a sentence, or undefined
 * when nothing does: ratios of runs made differently compare less well.
 */
export function settingsCaveat(previous: BenchResults, current: Omit<RunDescription, 'date'>): string | undefined {
  const differences: string[] = [];
  const compare = (what: string, before: unknown, now: unknown) => {
    if (before !== now) differences.push(`${what} ${String(before)} then, ${String(now)} now`);
  };
  compare('connections', previous.run.connections, current.connections);
  compare('seconds per row', previous.run.durationS, current.durationS);
  compare('rounds', previous.run.rounds, current.rounds);
  compare('CPUs', previous.run.machine.cpuCount, current.machine.cpuCount);
  compare('CPU', previous.run.machine.cpu, current.machine.cpu);
  return differences.length === 0 ? undefined : `The runs were made differently (${differences.join('; ')}).`;
}
