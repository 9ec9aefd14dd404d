import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpuMsOfStat, cpuSideOf, measureCpuPerRequest } from './cpu-per-request.js';
import type { LoadResult } from './load.js';

describe('cpuMsOfStat', () => {
  it('adds user and system time, counting the fields from the end of the process name', () => {
    // A name with a space and a parenthesis: counting from the first ") " would take the wrong fields.
    const stat =
      '4242 (node ) worker) S 1 4242 4242 0 -1 4194304 9120 0 0 0 1234 567 0 0 20 0 11 0 8000 1000000 30000 ' +
      '18446744073709551615 1 1 0 0 0 0 0 16781312 134235650 0 0 0 17 1 0 0 0 0 0';
    expect(cpuMsOfStat(stat)).toBe((1234 + 567) * 10);
  });

  it('refuses a line that is not /proc/<pid>/stat', () => {
    expect(() => cpuMsOfStat('no such fields')).toThrow(/Not a \/proc\/<pid>\/stat line/);
  });
});

describe('cpuSideOf', () => {
  const result = (p99Ms: number, failures = 0): LoadResult => ({
    requestsPerSecond: 100,
    p50Ms: p99Ms / 2,
    p99Ms,
    total: 1_000,
    failures,
    statusCounts: { '200': 1_000 - failures },
  });

  it("takes microseconds per request of each sample, the median sample, and the samples' latencies", () => {
    const side = cpuSideOf(
      [
        { cpuMs: 400, result: result(9) },
        { cpuMs: 900, result: result(30, 2) },
        { cpuMs: 500, result: result(10) },
      ],
      1_000,
    );
    expect(side.samplesUs).toEqual([400, 900, 500]);
    // One disturbed sample (900) moves neither the median nor the median p99.
    expect(side.usPerRequest).toBe(500);
    expect(side.latency).toMatchObject({ p99Ms: 10, total: 3_000, failures: 2 });
  });

  it('refuses no samples at all', () => {
    expect(() => cpuSideOf([], 1_000)).toThrow(/at least one sample/);
  });
});

describe('measureCpuPerRequest', () => {
  // Two servers in this process: which one each request reached, in order, and one that fails on demand.
  const arrivals: string[] = [];
  let failing = false;
  const servers: Server[] = [];
  const urls: Record<'service' | 'sameSql', string> = { service: '', sameSql: '' };

  beforeAll(async () => {
    for (const name of ['service', 'sameSql'] as const) {
      const server = createServer((_request, response) => {
        arrivals.push(name);
        response.statusCode = failing && name === 'service' ? 500 : 200;
        response.end('{}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      servers.push(server);
      urls[name] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const subject = (name: 'service' | 'sameSql') => ({
    target: { baseUrl: urls[name], request: () => ({ method: 'GET' as const, path: '/', headers: {} }), varies: false },
    pid: process.pid,
  });
  const runs = () => arrivals.filter((name, index) => index === 0 || arrivals[index - 1] !== name);

  it('warms up each side, then takes the samples in turns, the baseline first, and counts each sample', async () => {
    arrivals.length = 0;
    failing = false;
    const measured = await measureCpuPerRequest(subject('service'), subject('sameSql'), {
      requests: 20,
      samples: 2,
      connections: 1,
      warmupRequests: 5,
    });
    expect(runs()).toEqual(['sameSql', 'service', 'sameSql', 'service', 'sameSql', 'service']);
    expect(measured.service.samplesUs).toHaveLength(2);
    expect(measured.sameSql.samplesUs).toHaveLength(2);
    expect(measured.service.latency).toMatchObject({ total: 40, failures: 0 });
    expect(measured).toMatchObject({ connections: 1, requestsPerSample: 20 });
  });

  it('counts failed requests instead of throwing, so the row can be reported as not measured', async () => {
    arrivals.length = 0;
    failing = true;
    const measured = await measureCpuPerRequest(subject('service'), subject('sameSql'), {
      requests: 10,
      samples: 1,
      connections: 1,
      warmupRequests: 0,
    });
    expect(runs()).toEqual(['sameSql', 'service']);
    expect(measured.service.latency.failures).toBe(10);
    expect(measured.sameSql.latency.failures).toBe(0);
  });
});
