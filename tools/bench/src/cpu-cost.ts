/**
 * `pnpm --filter @platform/bench cpu-cost`: the CPU time the service process and its same-SQL baseline spend
 * per 1,000 requests of each endpoint (user + system time from /proc/<pid>/stat), three samples each. On a
 * shared 2-core machine throughput swings by 10-20% between runs; CPU per request moves much less, so this is
 * how a change to the request path is judged before a full `pnpm bench`. BENCH_ENDPOINTS picks endpoints;
 * CPU_REQUESTS (default 30,000) and CPU_CONNECTIONS (default 10) set each sample's load.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { baselinePath } from './baselines/spec.js';
import { REPO_ROOT, startBenchEnvironment } from './environment.js';
import { type LoadTarget, sendAmount } from './load.js';
import { readOptions } from './options.js';

const amount = Number(process.env.CPU_REQUESTS ?? 30_000);
const connections = Number(process.env.CPU_CONNECTIONS ?? 10);
const SAMPLES = 3;
const read = readOptions(process.env, path.join(REPO_ROOT, 'docs/benchmarks.md'));
const options = {
  ...read,
  output: undefined,
  jsonOutput: undefined,
  // A session for every decision the samples send, on the service and on its same-SQL baseline.
  decisionSessions:
    process.env.BENCH_DECISION_SESSIONS === undefined
      ? 2 * (Math.min(amount, 10_000) + SAMPLES * amount)
      : read.decisionSessions,
};

/** User plus system CPU time of a process so far, in ms (fields 14 and 15 of /proc/<pid>/stat, in ticks). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

async function cpuPerThousand(target: LoadTarget, pid: number): Promise<number[]> {
  await sendAmount(target, connections, Math.min(amount, 10_000)); // warm-up: JIT, pool, caches
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const before = cpuMs(pid);
    const result = await sendAmount(target, connections, amount);
    if (result.failures > 0) throw new Error(`${result.failures} of ${amount} requests failed`);
    samples.push(((cpuMs(pid) - before) / amount) * 1000);
  }
  return samples;
}

const environment = await startBenchEnvironment(options);
try {
  for (const { endpoint } of environment.endpoints) {
    const server = environment.services[endpoint.service];
    const service = await cpuPerThousand(
      { baseUrl: server.url, request: () => endpoint.request(), varies: endpoint.varies },
      server.pid,
    );
    const sameSql = await cpuPerThousand(
      {
        baseUrl: environment.sameSql.url,
        request: () => {
          const request = endpoint.request();
          return { ...request, path: baselinePath(endpoint.id, request.path) };
        },
        varies: endpoint.varies,
      },
      environment.sameSql.pid,
    );
    const show = (samples: number[]) => samples.map((ms) => ms.toFixed(0)).join(' / ');
    console.log(`${endpoint.label}: service ${show(service)} ms CPU per 1,000 requests; same-SQL ${show(sameSql)}`);
  }
} finally {
  await environment.close();
}
