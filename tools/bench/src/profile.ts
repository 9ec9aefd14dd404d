/**
 * `pnpm --filter @platform/bench run profile`: runs one endpoint against its service and its same-SQL baseline, both
 * started with `--cpu-prof`, and prints where the service's CPU time went during the measured run (self time by
 * package and by function), then each package's CPU per request on both sides, system calls counted to the package
 * that made them: what the service spends beyond its statements, package by package. BENCH_PROFILE_ENDPOINT names
 * the endpoint (an id from endpoints.ts, e.g. accounts-me); BENCH_PROFILE_OUT keeps the service's raw .cpuprofile
 * (open it in Chrome DevTools). Other settings as for the bench (BENCH_CONNECTIONS=10 to profile at the
 * concurrency of the bench's CPU samples).
 */
import { copyFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { baselinePath } from './baselines/spec.js';
import type { ServiceName } from './endpoints.js';
import { REPO_ROOT, startBenchEnvironment } from './environment.js';
import { measure } from './load.js';
import { readOptions } from './options.js';
import {
  type ProfileSummary,
  readCpuProfile,
  renderPerRequestComparison,
  renderProfileSummary,
  summariseProfile,
} from './report/cpu-profile.js';
import { renderWaits, sampleDatabaseWaits } from './report/database-waits.js';
import { describeTemplate } from './sql/describe.js';

const endpointId = process.env.BENCH_PROFILE_ENDPOINT;
if (endpointId === undefined || endpointId === '')
  throw new Error('Set BENCH_PROFILE_ENDPOINT to an endpoint id, e.g. accounts-me');
const options = {
  ...readOptions(process.env, path.join(REPO_ROOT, 'docs/benchmarks.md')),
  only: [endpointId],
  output: undefined,
  jsonOutput: undefined,
};
const profiled: Array<ServiceName | 'same-sql'> = ['main-api', 'backend-api', 'same-sql'];
const profileDir = (name: ServiceName | 'same-sql') => `/tmp/bench-cpu-profile-${process.pid}-${name}`;
const environment = await startBenchEnvironment(options, {
  nodeFlags: Object.fromEntries(profiled.map((name) => [name, ['--cpu-prof', `--cpu-prof-dir=${profileDir(name)}`]])),
});

/** The process's profile: the largest file in its directory (a loader thread writes a small one of its own). */
function profileOf(name: ServiceName | 'same-sql'): string {
  const dir = profileDir(name);
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.cpuprofile'))
    .map((file) => path.join(dir, file));
  if (files.length === 0) throw new Error(`${name} wrote no profile`);
  return files.sort((a, b) => statSync(b).size - statSync(a).size)[0]!;
}

const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const inclusivePatterns = [
  /jwtVerify/,
  /findActiveApiKey/,
  /serialize|stringify/i,
  /pino|sonic-boom|Pino/i,
  /rateLimit|RedisCounterStore|incr /,
];

try {
  const measured = environment.endpoints[0];
  if (measured === undefined) throw new Error(`${endpointId} is not available: ${JSON.stringify(environment.skipped)}`);
  const { endpoint, template } = measured;
  console.log(`\n${endpoint.label}: ${template.statements} statements\n${describeTemplate(template)}\n`);
  const server = environment.services[endpoint.service];
  const target = { baseUrl: server.url, request: () => endpoint.request(), varies: endpoint.varies };
  const baselineTarget = {
    baseUrl: environment.sameSql.url,
    request: () => {
      const request = endpoint.request();
      return { ...request, path: baselinePath(endpoint.id, request.path) };
    },
    varies: endpoint.varies,
  };
  if (options.warmupS > 0) {
    await measure(target, { ...options, warmupS: 0, durationS: options.warmupS });
    await measure(baselineTarget, { ...options, warmupS: 0, durationS: options.warmupS });
  }

  const serviceWindow = { fromUs: nowUs(), toUs: 0 };
  const serviceWaits = sampleDatabaseWaits(environment.databaseUrl);
  const result = await measure(target, { ...options, warmupS: 0 });
  const serviceWaitSamples = await serviceWaits.stop();
  serviceWindow.toUs = nowUs();
  console.log(
    `${endpoint.service}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.failures} failed`,
  );
  console.log(`Database connections meanwhile:\n${renderWaits(serviceWaitSamples)}`);

  // The same load on the same-SQL baseline, for comparison of what the database did and of the CPU beside it.
  const baselineWindow = { fromUs: nowUs(), toUs: 0 };
  const baselineWaits = sampleDatabaseWaits(environment.databaseUrl);
  const baseline = await measure(baselineTarget, { ...options, warmupS: 0 });
  console.log(
    `same-SQL baseline: ${Math.round(baseline.requestsPerSecond)} req/s, p50 ${baseline.p50Ms} ms, p99 ${baseline.p99Ms} ms, ${baseline.failures} failed`,
  );
  console.log(`Database connections meanwhile:\n${renderWaits(await baselineWaits.stop())}\n`);
  baselineWindow.toUs = nowUs();

  // A process writes its profile when it exits.
  await server.stop();
  await environment.sameSql.stop();
  const summaryOf = (name: ServiceName | 'same-sql', window: { fromUs: number; toUs: number }): ProfileSummary =>
    summariseProfile(readCpuProfile(profileOf(name)), { window, inclusivePatterns, top: 40 });
  const serviceSummary = summaryOf(endpoint.service, serviceWindow);
  console.log(renderProfileSummary(serviceSummary));
  console.log(
    `\n${renderPerRequestComparison(
      { summary: serviceSummary, requests: result.total },
      { summary: summaryOf('same-sql', baselineWindow), requests: baseline.total },
    )}`,
  );
  if (process.env.BENCH_PROFILE_OUT) {
    copyFileSync(profileOf(endpoint.service), process.env.BENCH_PROFILE_OUT);
    console.log(`\nProfile kept in ${process.env.BENCH_PROFILE_OUT}`);
  }
} finally {
  await environment.close();
}
