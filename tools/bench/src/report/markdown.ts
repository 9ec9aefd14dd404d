import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { CpuMeasurement } from '../cpu-per-request.js';
import type { LoadResult } from '../load.js';
import { type Comparison, type RatioInputs, renderComparison } from './comparison.js';
import {
  CPU_RATIO_TARGET,
  type CpuNumbers,
  cpuRatio,
  type MemoryNumbers,
  ratioToBaseline,
  rssGrowth,
  type TargetStatus,
  type TargetVerdict,
} from './targets.js';

export interface MachineDescription {
  cpu: string;
  cpuCount: number;
  memoryGib: number;
  os: string;
  node: string;
  postgres: string;
  redis: string;
}

export interface EndpointRow {
  id: string;
  label: string;
  kind: 'read' | 'write';
  statements: number;
  service: LoadResult;
  sameSql: LoadResult;
  nodeHttp: LoadResult;
  /** CPU per request of the service and its same-SQL baseline; undefined when the run took no CPU samples. */
  cpu: CpuMeasurement | undefined;
}

export interface SkippedEndpoint {
  label: string;
  reason: string;
}

export interface RunDescription {
  date: Date;
  machine: MachineDescription;
  /** How the services ran, e.g. `compiled JS (node apps/<service>/dist/server.js)`. */
  runtime: string;
  connections: number;
  durationS: number;
  warmupS: number;
  rounds: number;
  /** Each row's CPU samples: requests per sample, samples per side, connections. */
  cpu: { requests: number; samples: number; connections: number };
  memoryRequests: number;
  logLevel: string;
  poolSize: number;
  /** The machine's 1-minute load average at the start and end of the run: other work skews the numbers. */
  loadAverage: { start: number; end: number };
}

export const RESULTS_START = '<!-- bench:results:start -->';
export const RESULTS_END = '<!-- bench:results:end -->';

const rps = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));
const mib = (kib: number) => `${(kib / 1024).toFixed(0)} MiB`;
const ratio = (value: number) => `${(value * 100).toFixed(0)}%`;
const times = (value: number | undefined) => (value === undefined ? '-' : `${value.toFixed(2)}x`);
const us = (value: number) => Math.round(value).toLocaleString('en-US');

function cpuNumbers(cpu: CpuMeasurement | undefined): CpuNumbers | undefined {
  if (cpu === undefined) return undefined;
  return {
    connections: cpu.connections,
    serviceUsPerRequest: cpu.service.usPerRequest,
    sameSqlUsPerRequest: cpu.sameSql.usPerRequest,
    serviceP99Ms: cpu.service.latency.p99Ms,
    sameSqlP99Ms: cpu.sameSql.latency.p99Ms,
    failures: cpu.service.latency.failures + cpu.sameSql.latency.failures,
  };
}

export function endpointNumbers(row: EndpointRow): RatioInputs {
  return {
    id: row.id,
    label: row.label,
    kind: row.kind,
    statements: row.statements,
    serviceRps: row.service.requestsPerSecond,
    serviceP99Ms: row.service.p99Ms,
    sameSqlRps: row.sameSql.requestsPerSecond,
    sameSqlP99Ms: row.sameSql.p99Ms,
    nodeHttpRps: row.nodeHttp.requestsPerSecond,
    cpu: cpuNumbers(row.cpu),
  };
}

/** How a verdict's status reads in the Markdown: what is not met or not measured stands out. */
function statusText(status: TargetStatus): string {
  return status === 'met' ? 'met' : `**${status}**`;
}

/**
 * The generated part of docs/benchmarks.md: machine, settings, the table, memory, the targets, and each ratio's
 * change since the previous run when there was one.
 */
export function renderResults(
  run: RunDescription,
  rows: readonly EndpointRow[],
  skipped: readonly SkippedEndpoint[],
  memory: readonly MemoryNumbers[],
  verdicts: readonly TargetVerdict[],
  comparison?: Comparison,
): string {
  const { machine } = run;
  const lines = [
    `Last full run: ${run.date.toISOString().slice(0, 16).replace('T', ' ')} UTC.`,
    '',
    `- Machine: ${machine.cpuCount} x ${machine.cpu}, ${machine.memoryGib.toFixed(1)} GiB memory, ${machine.os}`,
    `- Node.js ${machine.node}, PostgreSQL ${machine.postgres}, Redis ${machine.redis}`,
    `- Load average of the machine (1 min): ${run.loadAverage.start.toFixed(2)} when the run started, ${run.loadAverage.end.toFixed(2)} when it ended (2 would be both cores busy before the run added any load)`,
    `- Services: ${run.runtime}, each in its own process, \`LOG_LEVEL=${run.logLevel}\` (logs to a file), database pool ${run.poolSize}`,
    `- Load: autocannon, ${run.connections} connections, ${run.warmupS} s warm-up then ${run.durationS} s measured per row and target${run.rounds > 1 ? `, in ${run.rounds} rounds taken in turns with the baselines (throughput over all rounds, the median round's latencies)` : ''}; the load generator runs on the same machine`,
    '- SQL statements per request: counted by the recording client the same-SQL baseline is recorded with (`sql/trace.ts`), `BEGIN` and `COMMIT` included',
    `- CPU per request: user and system time of the service's process, and of the same-SQL baseline's, from \`/proc/<pid>/stat\`, over ${run.cpu.samples} samples of ${run.cpu.requests.toLocaleString('en-US')} requests at ${run.cpu.connections} connections each, taken in turns after each row's throughput rounds: the median sample's CPU, and the median of the samples' p50s and p99s`,
    '',
    `CPU per request, judged (the service at most ${CPU_RATIO_TARGET.toFixed(1)}x its same-SQL baseline), at ${run.cpu.connections} connections:`,
    '',
    `| Endpoint | SQL statements per request | Service CPU µs per request | Same-SQL CPU µs per request | Service / same-SQL CPU | Service p50 / p99 ms | Same-SQL p50 / p99 ms |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const row of rows) {
    const { cpu } = row;
    if (cpu === undefined) {
      lines.push(`| ${row.label} | ${row.statements} | not measured | | | | |`);
      continue;
    }
    const failed = (side: CpuMeasurement['service']) =>
      side.latency.failures > 0 ? ` (${side.latency.failures} failed)` : '';
    lines.push(
      `| ${row.label} | ${row.statements} | ${us(cpu.service.usPerRequest)}${failed(cpu.service)} | ` +
        `${us(cpu.sameSql.usPerRequest)}${failed(cpu.sameSql)} | **${times(cpuRatio(cpuNumbers(cpu)))}** | ` +
        `${ms(cpu.service.latency.p50Ms)} / ${ms(cpu.service.latency.p99Ms)} | ` +
        `${ms(cpu.sameSql.latency.p50Ms)} / ${ms(cpu.sameSql.latency.p99Ms)} |`,
    );
  }
  for (const entry of skipped) lines.push(`| ${entry.label} | - | not measured: ${entry.reason} | | | | |`);

  lines.push(
    '',
    `Throughput at ${run.connections} connections, reported and not judged (a shared machine sets it as much as the service does):`,
    '',
    '| Endpoint | Service req/s | Service p50 / p99 ms | Same-SQL req/s | Same-SQL p50 / p99 ms | Service / same-SQL | node:http req/s | Service / node:http |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const row of rows) {
    const flagged = (result: LoadResult) => (result.failures > 0 ? ` (${result.failures} failed)` : '');
    lines.push(
      `| ${row.label} | ${rps(row.service.requestsPerSecond)}${flagged(row.service)} | ` +
        `${ms(row.service.p50Ms)} / ${ms(row.service.p99Ms)} | ${rps(row.sameSql.requestsPerSecond)}${flagged(row.sameSql)} | ` +
        `${ms(row.sameSql.p50Ms)} / ${ms(row.sameSql.p99Ms)} | ${ratio(ratioToBaseline(endpointNumbers(row)))} | ` +
        `${rps(row.nodeHttp.requestsPerSecond)} | ${ratio(row.service.requestsPerSecond / Math.max(row.nodeHttp.requestsPerSecond, 1))} |`,
    );
  }
  for (const entry of skipped) lines.push(`| ${entry.label} | not measured: ${entry.reason} | | | | | | |`);

  if (memory.length > 0) {
    const quarter = Math.ceil(run.memoryRequests / 4);
    lines.push(
      '',
      `Memory: VmRSS of each service process when it first answered, then read every 50 ms while it answered ` +
        `${quarter.toLocaleString('en-US')} requests to a read endpoint to settle and ${run.memoryRequests.toLocaleString('en-US')} ` +
        `more, counted in quarters of ${quarter.toLocaleString('en-US')}: each quarter's lowest and highest reading. ` +
        'Growth is the lowest reading of the last two quarters against that of the first two (a leak raises the lowest; ' +
        'collections move the highest).',
      '',
      '| Service | Endpoint | At first answer | Each quarter of the counted requests, lowest - highest | Growth |',
      '|---|---|---:|---:|---:|',
    );
    for (const entry of memory) {
      const quarters = entry.quarters.map((range) => `${mib(range.floorKib)} - ${mib(range.peakKib)}`).join(', ');
      lines.push(
        `| ${entry.service} | ${entry.endpoint} | ${mib(entry.bootKib)} | ${quarters} | ` +
          `${(rssGrowth(entry) * 100).toFixed(1)}% |`,
      );
    }
  }

  lines.push('', 'Targets:', '');
  for (const verdict of verdicts) lines.push(`- ${statusText(verdict.status)}: ${renderVerdict(verdict)}`);
  const count = (status: TargetStatus) => verdicts.filter((verdict) => verdict.status === status).length;
  if (verdicts.length > 0) {
    lines.push(
      '',
      `${count('met')} of ${verdicts.length} targets met, ${count('not met')} not met, ${count('not measured')} not measured.`,
    );
  }
  if (comparison !== undefined) lines.push('', renderComparison(comparison));
  return lines.join('\n');
}

/** A target and what was reached, or why it was not measured. */
function renderVerdict(verdict: TargetVerdict): string {
  return `${verdict.target} (${verdict.detail})`;
}

/** A verdict on the console: the status first, padded, so the misses line up. */
export function renderConsoleVerdict(verdict: TargetVerdict): string {
  return `${verdict.status.toUpperCase().padEnd('NOT MEASURED'.length)}  ${renderVerdict(verdict)}`;
}

/**
 * The console version: CPU per request and its ratio (judged), statements, the p99 at the CPU samples' connections,
 * then the throughput at the run's connections.
 */
export function renderConsoleTable(rows: readonly EndpointRow[]): string {
  const header = [
    'endpoint',
    'statements',
    'CPU µs',
    'same-SQL CPU µs',
    'CPU ratio',
    'p99 (CPU samples)',
    'same-SQL p99',
    'req/s',
    'p99',
    'same-SQL req/s',
    'ratio',
    'node:http req/s',
  ];
  const body = rows.map((row) => [
    row.label,
    String(row.statements),
    row.cpu === undefined ? 'not measured' : us(row.cpu.service.usPerRequest),
    row.cpu === undefined ? '-' : us(row.cpu.sameSql.usPerRequest),
    times(cpuRatio(cpuNumbers(row.cpu))),
    row.cpu === undefined ? '-' : `${ms(row.cpu.service.latency.p99Ms)} ms`,
    row.cpu === undefined ? '-' : `${ms(row.cpu.sameSql.latency.p99Ms)} ms`,
    rps(row.service.requestsPerSecond),
    `${ms(row.service.p99Ms)} ms`,
    rps(row.sameSql.requestsPerSecond),
    ratio(ratioToBaseline(endpointNumbers(row))),
    rps(row.nodeHttp.requestsPerSecond),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [format(header), ...body.map(format)].join('\n');
}

/**
 * Puts `results` between the result markers of `file`, keeping everything around them (the hand-written
 * analysis); a file without markers gets them appended.
 */
export function writeResults(file: string, results: string): void {
  const block = `${RESULTS_START}\n${results}\n${RESULTS_END}`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const start = current.indexOf(RESULTS_START);
  const end = current.indexOf(RESULTS_END);
  const next =
    start >= 0 && end > start
      ? `${current.slice(0, start)}${block}${current.slice(end + RESULTS_END.length)}`
      : `${current.trimEnd()}\n\n## Results\n\n${block}\n`;
  writeFileSync(file, next);
}
