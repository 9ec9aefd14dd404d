/**
 * `pnpm bench`: measures both services against same-SQL and bare node:http baselines on real PostgreSQL and
 * Redis, and writes the table to docs/benchmarks.md and the numbers to docs/benchmarks.json, with each ratio's
 * change since the previous results. Settings: see options.ts and docs/benchmarks.md.
 */
import os from 'node:os';
import path from 'node:path';
import { baselinePath } from './baselines/spec.js';
import { measureCpuPerRequest } from './cpu-per-request.js';
import { type BenchRequest, ENDPOINT_IDS, memoryProbeRequests, type ServiceName } from './endpoints.js';
import { type BenchEnvironment, POOL_SIZE, REPO_ROOT, startBenchEnvironment } from './environment.js';
import { combineRounds, type LoadResult, type LoadSettings, type LoadTarget, measure, sendAmount } from './load.js';
import { sampleRssWhile } from './memory-sampling.js';
import { readOptions } from './options.js';
import { type Comparison, compareRatios, ratiosOf, renderComparisonLines } from './report/comparison.js';
import { describeMachine } from './report/machine.js';
import {
  type EndpointRow,
  endpointNumbers,
  type RunDescription,
  renderConsoleTable,
  renderConsoleVerdict,
  renderResults,
  writeResults,
} from './report/markdown.js';
import { readResultsJson, resultsOf, settingsCaveat, writeResultsJson } from './report/results-file.js';
import { judgeTargets, type MemoryNumbers, type TargetPlan } from './report/targets.js';
import { describeTemplate } from './sql/describe.js';

const options = readOptions(process.env, path.join(REPO_ROOT, 'docs/benchmarks.md'));
const settings: LoadSettings = {
  connections: options.connections,
  durationS: options.durationS,
  warmupS: options.warmupS,
};
const started = Date.now();
const loadAtStart = os.loadavg()[0] ?? 0;
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;

/** The rows the targets beyond CPU per request name (report/targets.ts). */
const targetPlan: TargetPlan = {
  creates: [ENDPOINT_IDS.sessionCreateManyOrganizations, ENDPOINT_IDS.sessionCreateOneOrganization],
  replay: { firstId: ENDPOINT_IDS.sessionCreateOneOrganization, replayId: ENDPOINT_IDS.sessionReplay },
};
// Read before anything is written, so a run that writes the same file compares with the run before it.
const previous = readResultsJson(options.previous);

const environment = await startBenchEnvironment(options);
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  console.log('\nInterrupted: stopping the processes and dropping the database');
  void environment.close().finally(() => process.exit(130));
});

if (process.env.BENCH_SHOW_SQL === '1') {
  for (const { endpoint, template } of environment.endpoints) {
    console.log(`\n${endpoint.label}: ${template.statements} statements\n${describeTemplate(template)}`);
  }
}

try {
  const machine = await describeMachine(options.databaseUrl, options.redisUrl);
  const rows = await measureEndpoints(environment);
  const memory = await measureMemory(environment);
  const numbers = rows.map(endpointNumbers);
  const verdicts = judgeTargets(numbers, memory, targetPlan, environment.skipped);
  const ratios = ratiosOf(numbers);
  const run: RunDescription = {
    date: new Date(),
    machine,
    runtime: environment.runtime,
    connections: options.connections,
    durationS: options.durationS,
    warmupS: options.warmupS,
    rounds: options.rounds,
    cpu: { requests: options.cpu.requests, samples: options.cpu.samples, connections: options.cpu.connections },
    memoryRequests: options.memoryRequests,
    logLevel: options.logLevel,
    poolSize: POOL_SIZE,
    loadAverage: { start: loadAtStart, end: os.loadavg()[0] ?? 0 },
  };
  const comparison: Comparison | undefined =
    previous === undefined
      ? undefined
      : {
          previousDate: previous.date,
          caveat: settingsCaveat(previous, run),
          changes: compareRatios(previous.ratios, ratios),
        };

  console.log(`\n${renderConsoleTable(rows)}\n`);
  for (const entry of memory) {
    const mib = (kib: number) => (kib / 1024).toFixed(1);
    console.log(
      `${entry.service}: RSS by quarter, lowest - highest: ${entry.quarters.map((range) => `${mib(range.floorKib)} - ${mib(range.peakKib)}`).join(', ')} MiB`,
    );
  }
  for (const verdict of verdicts) console.log(renderConsoleVerdict(verdict));
  if (comparison === undefined)
    console.log(`\nNo previous results at ${path.relative(process.cwd(), options.previous)}`);
  else console.log(`\n${renderComparisonLines(comparison).join('\n')}`);

  if (options.output !== undefined) {
    writeResults(options.output, renderResults(run, rows, environment.skipped, memory, verdicts, comparison));
    console.log(`\nWrote ${path.relative(process.cwd(), options.output)} (${elapsed()})`);
  }
  if (options.jsonOutput !== undefined) {
    writeResultsJson(
      options.jsonOutput,
      resultsOf(run, { rows, skipped: environment.skipped, memory, ratios, verdicts }),
    );
    console.log(`Wrote ${path.relative(process.cwd(), options.jsonOutput)}`);
  }
} finally {
  if (!interrupted) await environment.close();
}

async function measureEndpoints(env: BenchEnvironment): Promise<EndpointRow[]> {
  const rows: EndpointRow[] = [];
  for (const { endpoint, template } of env.endpoints) {
    const prefixed = (next: () => BenchRequest) => (): BenchRequest => {
      const request = next();
      return { ...request, path: baselinePath(endpoint.id, request.path) };
    };
    const shape = endpoint.requestShape ?? (() => endpoint.request());
    const target = (baseUrl: string, request: () => BenchRequest): LoadTarget => ({
      baseUrl,
      request,
      varies: endpoint.varies,
    });
    // In rounds, taken in turns, so the service and its baselines share whatever else the machine does. The
    // baseline runs first in each: writes leave rows behind (folder creates count the folders), so the service
    // meets at least as much data as its baseline did.
    const rounds: Record<'sameSql' | 'service' | 'nodeHttp', LoadResult[]> = { sameSql: [], service: [], nodeHttp: [] };
    for (let round = 0; round < options.rounds; round += 1) {
      const slice: LoadSettings = {
        ...settings,
        durationS: settings.durationS / options.rounds,
        warmupS: round === 0 ? settings.warmupS : 0,
      };
      rounds.sameSql.push(
        await measure(
          target(
            env.sameSql.url,
            prefixed(() => endpoint.request()),
          ),
          slice,
        ),
      );
      rounds.service.push(
        await measure(
          target(env.services[endpoint.service].url, () => endpoint.request()),
          slice,
        ),
      );
      rounds.nodeHttp.push(await measure(target(env.nodeHttp.url, prefixed(shape)), slice));
    }
    const [sameSql, service, nodeHttp] = [
      combineRounds(rounds.sameSql),
      combineRounds(rounds.service),
      combineRounds(rounds.nodeHttp),
    ];
    // CPU per request, what the row is judged by: counted requests at a few connections, taken in turns.
    const cpu =
      options.cpu.samples === 0
        ? undefined
        : await measureCpuPerRequest(
            {
              target: target(env.services[endpoint.service].url, () => endpoint.request()),
              pid: env.services[endpoint.service].pid,
            },
            {
              target: target(
                env.sameSql.url,
                prefixed(() => endpoint.request()),
              ),
              pid: env.sameSql.pid,
            },
            options.cpu,
          );
    const shortage = endpoint.shortage?.();
    if (shortage !== undefined) console.log(`${endpoint.label}: ${shortage}`);
    const row: EndpointRow = {
      id: endpoint.id,
      label: endpoint.label,
      kind: endpoint.kind,
      statements: template.statements,
      service,
      sameSql,
      nodeHttp,
      cpu,
    };
    rows.push(row);
    if (sameSql.failures > 0)
      console.log(`The same-SQL baseline failed requests; its log ends:\n${env.sameSql.logTail()}`);
    if (service.failures > 0)
      console.log(`${endpoint.service} failed requests; its log ends:\n${env.services[endpoint.service].logTail(5)}`);
    console.log(
      `${endpoint.label} (${template.statements} statements): ${describe(service)}; same-SQL ${describe(sameSql)}; node:http ${describe(nodeHttp)}` +
        (cpu === undefined
          ? ''
          : `; CPU per request ${Math.round(cpu.service.usPerRequest)} µs, same-SQL ${Math.round(cpu.sameSql.usPerRequest)} µs ` +
            `(p99 at ${cpu.connections} connections ${cpu.service.latency.p99Ms} / ${cpu.sameSql.latency.p99Ms} ms)`) +
        ` (${elapsed()})`,
    );
  }
  return rows;
}

async function measureMemory(env: BenchEnvironment): Promise<MemoryNumbers[]> {
  if (options.memoryRequests === 0) return [];
  const probes = memoryProbeRequests(env.fixture, env.token);
  const quarter = Math.ceil(options.memoryRequests / 4);
  const results: MemoryNumbers[] = [];
  for (const service of ['main-api', 'backend-api'] as ServiceName[]) {
    const server = env.services[service];
    const request = probes[service];
    const target: LoadTarget = { baseUrl: server.url, request: () => request, varies: false };
    // A quarter of the count first, unmeasured: a process grows its heap to a working size over its first
    // tens of thousands of requests, and only growth past that would be a leak.
    await sendAmount(target, options.connections, quarter);
    const quarters: MemoryNumbers['quarters'] = [];
    let last: LoadResult | undefined;
    for (let part = 0; part < 4; part += 1) {
      const { result, rss } = await sampleRssWhile(server.rssKib, () =>
        sendAmount(target, options.connections, quarter),
      );
      last = result;
      quarters.push({ floorKib: rss.floorKib, peakKib: rss.peakKib });
    }
    console.log(
      `${service} memory run (${request.method} ${request.path}): ${last === undefined ? '' : describe(last)} (${elapsed()})`,
    );
    results.push({
      service,
      endpoint: `${request.method} ${request.path}`,
      bootKib: env.bootRssKib[service],
      quarters,
    });
  }
  return results;
}

function describe(result: LoadResult): string {
  const failures = result.failures > 0 ? `, ${result.failures} failed ${JSON.stringify(result.statusCounts)}` : '';
  return `${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms${failures}`;
}
