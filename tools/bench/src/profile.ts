/**
 * `pnpm --filter @platform/bench profile`: runs one endpoint against its service started with `--cpu-prof`,
 * and prints where the service's CPU time went during the measured run (self time by package and by
 * function). BENCH_PROFILE_ENDPOINT names the endpoint (an id from endpoints.ts, e.g. accounts-me);
 * BENCH_PROFILE_OUT keeps the raw .cpuprofile (open it in Chrome DevTools). Other settings as for the bench.
 */
import { copyFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { baselinePath } from './baselines/spec.js';
import type { ServiceName } from './endpoints.js';
import { REPO_ROOT, startBenchEnvironment } from './environment.js';
import { measure } from './load.js';
import { readOptions } from './options.js';
import { readCpuProfile, renderProfileSummary, summariseProfile } from './report/cpu-profile.js';
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
const services: ServiceName[] = ['main-api', 'backend-api'];
const profileDir = (service: ServiceName) => `/tmp/bench-cpu-profile-${process.pid}-${service}`;
const environment = await startBenchEnvironment(options, {
  nodeFlags: Object.fromEntries(
    services.map((service) => [service, ['--cpu-prof', `--cpu-prof-dir=${profileDir(service)}`]]),
  ),
});

try {
  const measured = environment.endpoints[0];
  if (measured === undefined) throw new Error(`${endpointId} is not available: ${JSON.stringify(environment.skipped)}`);
  const { endpoint, template } = measured;
  console.log(`\n${endpoint.label}: ${template.statements} statements\n${describeTemplate(template)}\n`);
  const server = environment.services[endpoint.service];
  const target = { baseUrl: server.url, request: () => endpoint.request(), varies: endpoint.varies };
  if (options.warmupS > 0) await measure(target, { ...options, warmupS: 0, durationS: options.warmupS });
  const fromUs = Number(process.hrtime.bigint() / 1000n);
  const serviceWaits = sampleDatabaseWaits(environment.databaseUrl);
  const result = await measure(target, { ...options, warmupS: 0 });
  const serviceWaitSamples = await serviceWaits.stop();
  const toUs = Number(process.hrtime.bigint() / 1000n);
  console.log(
    `${endpoint.service}: ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, ${result.failures} failed`,
  );
  console.log(`Database connections meanwhile:\n${renderWaits(serviceWaitSamples)}`);

  // The same load on the same-SQL baseline, for comparison of what the database did.
  const baselineTarget = {
    baseUrl: environment.sameSql.url,
    request: () => {
      const request = endpoint.request();
      return { ...request, path: baselinePath(endpoint.id, request.path) };
    },
    varies: endpoint.varies,
  };
  const baselineWaits = sampleDatabaseWaits(environment.databaseUrl);
  const baseline = await measure(baselineTarget, { ...options, warmupS: 0 });
  console.log(
    `same-SQL baseline: ${Math.round(baseline.requestsPerSecond)} req/s, p50 ${baseline.p50Ms} ms, p99 ${baseline.p99Ms} ms, ${baseline.failures} failed`,
  );
  console.log(`Database connections meanwhile:\n${renderWaits(await baselineWaits.stop())}\n`);

  await server.stop();
  const file = readdirSync(profileDir(endpoint.service)).find((name) => name.endsWith('.cpuprofile'));
  if (file === undefined) throw new Error(`${endpoint.service} wrote no profile`);
  const fullPath = path.join(profileDir(endpoint.service), file);
  const summary = summariseProfile(readCpuProfile(fullPath), {
    window: { fromUs, toUs },
    inclusivePatterns: [
      /jwtVerify/,
      /findActiveApiKey/,
      /serialize|stringify/i,
      /pino|sonic-boom|Pino/i,
      /rateLimit|RedisCounterStore|incr /,
    ],
  });
  console.log(renderProfileSummary(summary));
  if (process.env.BENCH_PROFILE_OUT) {
    copyFileSync(fullPath, process.env.BENCH_PROFILE_OUT);
    console.log(`\nProfile kept in ${process.env.BENCH_PROFILE_OUT}`);
  }
} finally {
  await environment.close();
}
