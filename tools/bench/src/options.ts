import type { CpuSettings } from './cpu-per-request.js';

export interface BenchOptions {
  databaseUrl: string;
  redisUrl: string;
  connections: number;
  durationS: number;
  warmupS: number;
  /** The measured seconds of each row and target are split into this many rounds, taken in turns. */
  rounds: number;
  /**
   * Each row's CPU per request on the service and on its same-SQL baseline (cpu-per-request.ts), what the row is
   * judged by: samples of counted requests at a few connections, taken in turns. No samples: no row is judged.
   */
  cpu: CpuSettings;
  /** Requests of the long run each service's memory is watched over. */
  memoryRequests: number;
  /** Endpoint ids to run; all when empty. */
  only: string[];
  logLevel: string;
  /** Where the results table goes; undefined: printed only. */
  output: string | undefined;
  /** Where the results go as JSON: beside `output`, with the extension .json; undefined when `output` is. */
  jsonOutput: string | undefined;
  /**
   * The results of an earlier run to compare each ratio with (BENCH_PREVIOUS, else the JSON beside the Markdown
   * file, read before it is overwritten); the comparison is left out when the file does not exist.
   */
  previous: string;
  /** Sessions seeded for the decision row to decide, one per request of the service and its same-SQL baseline. */
  decisionSessions: number;
  keepDatabase: boolean;
}

/**
 * Decisions per second the seeded sessions last for, on each side (service and same-SQL baseline) for the whole
 * warm-up and measured time; a faster run runs out, and says so. The CPU samples count their requests, and get a
 * session for each.
 */
const DECISIONS_PER_SECOND_SEEDED = 1_500;

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** Defaults a script other than the bench itself sets (cpu-cost.ts: longer CPU samples). */
export interface OptionDefaults {
  cpuRequests?: number;
  cpuWarmupRequests?: number;
}

/**
 * Settings from the environment. BENCH_QUICK=1 makes a short run (1 s warm-up, 3 s per row, 1,000 requests per CPU
 * sample, 20,000 requests for memory) that prints its table without writing docs/benchmarks.md (or its JSON) unless
 * BENCH_OUTPUT says where.
 */
export function readOptions(
  env: NodeJS.ProcessEnv,
  defaultOutput: string,
  defaults: OptionDefaults = {},
): BenchOptions {
  const quick = env.BENCH_QUICK === '1' || env.BENCH_QUICK === 'true';
  const number = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number of at least 0 (got ${raw})`);
    return value;
  };
  const durationS = number('BENCH_DURATION_S', quick ? 3 : 10);
  const warmupS = number('BENCH_WARMUP_S', quick ? 1 : 2);
  const output = env.BENCH_OUTPUT || (quick ? undefined : defaultOutput);
  const cpu: CpuSettings = {
    requests: Math.max(1, Math.round(number('BENCH_CPU_REQUESTS', defaults.cpuRequests ?? (quick ? 1_000 : 5_000)))),
    samples: Math.round(number('BENCH_CPU_SAMPLES', 3)),
    connections: Math.max(1, Math.round(number('BENCH_CPU_CONNECTIONS', 10))),
    warmupRequests: Math.round(
      number('BENCH_CPU_WARMUP_REQUESTS', defaults.cpuWarmupRequests ?? (quick ? 500 : 1_000)),
    ),
  };
  return {
    databaseUrl: env.DATABASE_URL || DEFAULT_DATABASE_URL,
    redisUrl: env.REDIS_URL || DEFAULT_REDIS_URL,
    connections: number('BENCH_CONNECTIONS', 50),
    durationS,
    warmupS,
    rounds: Math.max(1, Math.round(number('BENCH_ROUNDS', quick ? 1 : 3))),
    cpu,
    memoryRequests: number('BENCH_MEMORY_REQUESTS', quick ? 20_000 : 200_000),
    only: (env.BENCH_ENDPOINTS ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== ''),
    logLevel: env.BENCH_LOG_LEVEL || 'info',
    output,
    jsonOutput: output === undefined ? undefined : jsonBeside(output),
    previous: env.BENCH_PREVIOUS || jsonBeside(output ?? defaultOutput),
    decisionSessions: Math.round(
      number(
        'BENCH_DECISION_SESSIONS',
        Math.ceil(2 * (warmupS + durationS) * DECISIONS_PER_SECOND_SEEDED) +
          2 * (cpu.warmupRequests + cpu.samples * cpu.requests),
      ),
    ),
    keepDatabase: env.BENCH_KEEP_DATABASE === '1',
  };
}

/** `docs/benchmarks.md` -> `docs/benchmarks.json`: the results' JSON lives beside their Markdown. */
export function jsonBeside(markdownFile: string): string {
  return markdownFile.replace(/(\.md)?$/i, '.json');
}
