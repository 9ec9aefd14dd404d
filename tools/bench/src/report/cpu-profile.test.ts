import { describe, expect, it } from 'vitest';
import {
  type CpuProfile,
  type ProfileSummary,
  packageOf,
  renderPerRequestComparison,
  summariseProfile,
} from './cpu-profile.js';

describe('CPU profile summaries', () => {
  it('names the package a script belongs to', () => {
    expect(packageOf('file:///w/node_modules/.pnpm/x/node_modules/@fastify/helmet/index.js')).toBe('@fastify/helmet');
    expect(packageOf('file:///w/node_modules/.pnpm/x/node_modules/drizzle-orm/sql/sql.js')).toBe('drizzle-orm');
    expect(packageOf('file:///w/apps/main-api/dist/app.js')).toBe('@platform/main-api');
    expect(packageOf('node:internal/crypto/util')).toBe('node (core)');
  });

  it('counts self time per function and package, inside the time window only', () => {
    const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
      id,
      callFrame: { functionName, url, lineNumber: 0 },
      children,
    });
    const profile: CpuProfile = {
      startTime: 1_000,
      nodes: [
        frame(1, '(root)', '', [2, 4]),
        frame(2, 'handler', 'file:///w/apps/main-api/dist/app.js', [3]),
        frame(3, 'is', 'file:///w/node_modules/drizzle-orm/entity.js'),
        frame(4, '(idle)', ''),
      ],
      // Sample times: 1100, 1200, 1300, 1400, 5000 (outside the window).
      samples: [3, 3, 2, 4, 3],
      timeDeltas: [100, 100, 100, 100, 3_600],
    };
    const summary = summariseProfile(profile, {
      window: { fromUs: 1_050, toUs: 2_000 },
      inclusivePatterns: [/handler/],
    });
    expect(summary.totalMs).toBeCloseTo(0.4);
    expect(summary.idle).toBeCloseTo(0.25);
    expect(summary.byPackage).toEqual([
      { name: 'drizzle-orm', share: 0.5 },
      { name: '@platform/main-api', share: 0.25 },
      { name: '(idle)', share: 0.25 },
    ]);
    expect(summary.inclusive).toEqual([{ name: 'handler', share: 0.75 }]);
  });

  it("counts a system call to the package that asked for it, through Node's core, and idle time as idle", () => {
    const frame = (id: number, functionName: string, url: string, children: number[] = []) => ({
      id,
      callFrame: { functionName, url, lineNumber: 0 },
      children,
    });
    const profile: CpuProfile = {
      startTime: 0,
      nodes: [
        frame(1, '(root)', '', [2, 5, 6]),
        frame(2, 'send', 'file:///w/node_modules/fastify/lib/reply.js', [3]),
        frame(3, 'writevGeneric', 'node:internal/stream_base_commons', [4]),
        frame(4, 'writev', ''),
        frame(5, '(idle)', ''),
        frame(6, '(garbage collector)', ''),
      ],
      samples: [4, 4, 3, 2, 5, 6],
      timeDeltas: [100, 100, 100, 100, 100, 100],
    };
    const summary = summariseProfile(profile);
    expect(summary.byPackage.map((entry) => entry.name)).toEqual([
      '(native or V8)',
      'node (core)',
      'fastify',
      '(idle)',
      '(garbage collector)',
    ]);
    expect(summary.byCallingPackage).toEqual([
      { name: 'fastify', share: 4 / 6 },
      { name: '(idle)', share: 1 / 6 },
      { name: '(garbage collector)', share: 1 / 6 },
    ]);
  });

  it("puts each package's busy time per request beside the baseline's, the largest difference first", () => {
    const summary = (totalMs: number, byCallingPackage: ProfileSummary['byCallingPackage']): ProfileSummary => ({
      totalMs,
      idle: 0,
      byFunction: [],
      byPackage: [],
      byCallingPackage,
      inclusive: [],
    });
    // Service: 1,000 ms over 2,000 requests (500 µs each); baseline: 400 ms over 2,000 (200 µs each).
    const service = summary(1_000, [
      { name: 'postgres', share: 0.25 },
      { name: 'pino', share: 0.2 },
      { name: 'fastify', share: 0.35 },
      { name: '(idle)', share: 0.2 },
    ]);
    const baseline = summary(400, [
      { name: 'postgres', share: 0.75 },
      { name: 'fastify', share: 0.25 },
    ]);
    expect(
      renderPerRequestComparison({ summary: service, requests: 2_000 }, { summary: baseline, requests: 2_000 }).split(
        '\n',
      ),
    ).toEqual([
      'Busy time per request by calling package, in µs (service, same-SQL baseline, difference):',
      '     175      50     125  fastify',
      '     100       0     100  pino',
      '     125     150     -25  postgres',
      '     400     200     200  (all)',
    ]);
  });
});
