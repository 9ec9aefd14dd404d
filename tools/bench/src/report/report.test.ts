import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CpuProfile, packageOf, summariseProfile } from './cpu-profile.js';
import { RESULTS_END, RESULTS_START, writeResults } from './markdown.js';
import { judgeTargets, type MemoryNumbers } from './targets.js';

describe('judgeTargets', () => {
  const read = {
    id: 'me',
    label: 'GET /me',
    kind: 'read' as const,
    serviceRps: 600,
    serviceP99Ms: 30,
    sameSqlRps: 1000,
  };
  const first = {
    id: 'create',
    label: 'POST /things',
    kind: 'write' as const,
    serviceRps: 100,
    serviceP99Ms: 500,
    sameSqlRps: 300,
  };
  const replay = {
    id: 'replay',
    label: 'POST /things (replay)',
    kind: 'write' as const,
    serviceRps: 290,
    serviceP99Ms: 40,
    sameSqlRps: 800,
  };
  const memory: MemoryNumbers = {
    service: 'svc',
    endpoint: 'GET /me',
    bootKib: 50_000,
    beforeKib: 100_000,
    checkpointsKib: [109_000],
    afterKib: 109_000,
  };

  it('judges reads at 60% and p99 25 ms, writes at 40%, replays at 3x, and growth under 10%', () => {
    const verdicts = judgeTargets([read, first, replay], [memory], { firstId: 'create', replayId: 'replay' });
    expect(verdicts.map((verdict) => [verdict.met, verdict.detail])).toEqual([
      [true, '60%'],
      [false, '30 ms'],
      [false, '33%'],
      [false, '36%'],
      [false, '2.9x'],
      [true, '9.0%'],
    ]);
  });

  it('leaves out the replay target when either endpoint was not measured', () => {
    const verdicts = judgeTargets([read], [], { firstId: 'create', replayId: 'replay' });
    expect(verdicts.map((verdict) => verdict.target)).not.toContainEqual(expect.stringContaining('replay'));
  });
});

describe('writeResults', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces only what is between the markers, keeping the text around them', () => {
    const file = path.join(dir, 'benchmarks.md');
    writeFileSync(file, `# Title\n\nBefore.\n\n${RESULTS_START}\nold table\n${RESULTS_END}\n\nAfter.\n`);
    writeResults(file, 'new table');
    expect(readFileSync(file, 'utf8')).toBe(
      `# Title\n\nBefore.\n\n${RESULTS_START}\nnew table\n${RESULTS_END}\n\nAfter.\n`,
    );
  });

  it('appends a results section to a file without markers', () => {
    const file = path.join(dir, 'plain.md');
    writeFileSync(file, '# Title\n');
    writeResults(file, 'table');
    expect(readFileSync(file, 'utf8')).toBe(`# Title\n\n## Results\n\n${RESULTS_START}\ntable\n${RESULTS_END}\n`);
  });
});

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
});
