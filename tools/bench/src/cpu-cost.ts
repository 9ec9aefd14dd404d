/**
 * `pnpm --filter @platform/bench cpu-cost`: the CPU time the service process and its same-SQL baseline spend
 * per 1,000 requests of each endpoint (user + system time from /proc/<pid>/stat), samples taken in turns, and the
 * ratio the bench judges each row by (cpu-per-request.ts). On a shared 2-core machine throughput swings by 10-20%
 * between runs; CPU per request moves much less, so this is how a change to the request path is judged before a
 * full `pnpm bench`. BENCH_ENDPOINTS picks endpoints; BENCH_CPU_REQUESTS (here 30,000), BENCH_CPU_SAMPLES (3),
 * BENCH_CPU_CONNECTIONS (10) and BENCH_CPU_WARMUP_REQUESTS (here 10,000) set the load.
 */
import path from 'node:path';
import { baselinePath } from './baselines/spec.js';
import { measureCpuPerRequest } from './cpu-per-request.js';
import { REPO_ROOT, startBenchEnvironment } from './environment.js';
import { readOptions } from './options.js';

const options = {
  ...readOptions(process.env, path.join(REPO_ROOT, 'docs/benchmarks.md'), {
    cpuRequests: 30_000,
    cpuWarmupRequests: 10_000,
  }),
  output: undefined,
  jsonOutput: undefined,
};

const environment = await startBenchEnvironment(options);
try {
  for (const { endpoint } of environment.endpoints) {
    const server = environment.services[endpoint.service];
    const measured = await measureCpuPerRequest(
      {
        target: { baseUrl: server.url, request: () => endpoint.request(), varies: endpoint.varies },
        pid: server.pid,
      },
      {
        target: {
          baseUrl: environment.sameSql.url,
          request: () => {
            const request = endpoint.request();
            return { ...request, path: baselinePath(endpoint.id, request.path) };
          },
          varies: endpoint.varies,
        },
        pid: environment.sameSql.pid,
      },
      options.cpu,
    );
    const show = (samplesUs: number[]) => samplesUs.map((us) => us.toFixed(0)).join(' / ');
    const failures = measured.service.latency.failures + measured.sameSql.latency.failures;
    console.log(
      `${endpoint.label}: service ${show(measured.service.samplesUs)} ms CPU per 1,000 requests; ` +
        `same-SQL ${show(measured.sameSql.samplesUs)}; medians ${(measured.service.usPerRequest / measured.sameSql.usPerRequest).toFixed(2)}x` +
        (failures > 0 ? ` (${failures} requests failed)` : ''),
    );
  }
} finally {
  await environment.close();
}
