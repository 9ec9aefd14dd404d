import type { RunDescription } from './markdown.js';
import type { CpuNumbers } from './targets.js';

// What the report's tests share: the machine and run a report describes, and CPU numbers of one endpoint.

const machine = {
  cpu: 'AMD EPYC',
  cpuCount: 2,
  memoryGib: 23.5,
  os: 'Linux',
  node: '20.20.2',
  postgres: '15.20',
  redis: '7.0.15',
};
export const run: RunDescription = {
  date: new Date('2026-11-26T10:00:00.000Z'),
  machine,
  runtime: 'compiled JS',
  connections: 50,
  durationS: 10,
  warmupS: 2,
  rounds: 3,
  cpu: { requests: 5_000, samples: 3, connections: 10 },
  memoryRequests: 200_000,
  logLevel: 'info',
  poolSize: 10,
  loadAverage: { start: 1, end: 2 },
};

export const cpu = (
  serviceUsPerRequest: number,
  sameSqlUsPerRequest: number,
  extra: Partial<CpuNumbers> = {},
): CpuNumbers => ({
  connections: 10,
  serviceUsPerRequest,
  sameSqlUsPerRequest,
  serviceP99Ms: 4,
  sameSqlP99Ms: 2,
  failures: 0,
  ...extra,
});
