import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonBeside } from '../options.js';
import {
  type Comparison,
  compareRatios,
  isNotable,
  type RatioInputs,
  ratiosOf,
  renderComparison,
  renderComparisonLines,
} from './comparison.js';
import { type CpuProfile, packageOf, summariseProfile } from './cpu-profile.js';
import { RESULTS_END, RESULTS_START, type RunDescription, renderResults, writeResults } from './markdown.js';
import { readResultsJson, resultsOf, settingsCaveat, writeResultsJson } from './results-file.js';
import { type EndpointNumbers, judgeTargets, type MemoryNumbers, type TargetPlan } from './targets.js';

const machine = {
  cpu: 'AMD EPYC',
  cpuCount: 2,
  memoryGib: 23.5,
  os: 'Linux',
  node: '20.20.2',
  postgres: '15.20',
  redis: '7.0.15',
};
const run: RunDescription = {
  date: new Date('2026-11-26T10:00:00.000Z'),
  machine,
  runtime: 'compiled JS',
  connections: 50,
  durationS: 10,
  warmupS: 2,
  rounds: 3,
  memoryRequests: 200_000,
  logLevel: 'info',
  poolSize: 10,
  loadAverage: { start: 1, end: 2 },
};

describe('judgeTargets', () => {
  const numbers = (id: string, kind: 'read' | 'write', extra: Partial<EndpointNumbers> = {}): EndpointNumbers => ({
    id,
    label: id,
    kind,
    statements: 1,
    serviceRps: 600,
    serviceP99Ms: 10,
    sameSqlRps: 1000,
    sameSqlP99Ms: 5,
    ...extra,
  });
  const plan: TargetPlan = {
    strictReads: ['me'],
    creates: [
      { id: 'spread', share: 0.2 },
      { id: 'hot', share: 0.1 },
    ],
    reference: 'me',
    replay: { firstId: 'hot', replayId: 'replay' },
  };
  const memory: MemoryNumbers = {
    service: 'svc',
    endpoint: 'GET /me',
    bootKib: 50_000,
    quarters: [
      { floorKib: 100_000, peakKib: 150_000 },
      { floorKib: 109_000, peakKib: 140_000 },
    ],
  };
  const verdictsOf = (endpoints: EndpointNumbers[], memories: MemoryNumbers[] = []) =>
    judgeTargets(endpoints, memories, plan).map((verdict) => [verdict.target, verdict.met, verdict.detail]);

  it("holds the reads issue 21 names to 75% and 15 ms, and the other reads to issue 7's 60% and 25 ms", () => {
    expect(
      verdictsOf([
        numbers('me', 'read', { serviceRps: 7_400, sameSqlRps: 10_000, serviceP99Ms: 15 }),
        numbers('list', 'read', { serviceRps: 600, sameSqlRps: 1_000, serviceP99Ms: 26 }),
      ]),
    ).toEqual([
      ['me: >= 75% of its same-SQL baseline', false, '74%'],
      ['me: p99 <= 15 ms', true, '15 ms'],
      ['list: >= 60% of its same-SQL baseline', true, '60%'],
      ['list: p99 <= 25 ms', false, '26 ms'],
    ]);
  });

  it("holds session creates to 60% of their baseline, 6 statements and a share of the reference read's req/s", () => {
    const verdicts = verdictsOf([
      numbers('me', 'read', { serviceRps: 10_000, sameSqlRps: 10_000 }),
      numbers('spread', 'write', { serviceRps: 2_000, sameSqlRps: 3_000, statements: 6 }),
      numbers('hot', 'write', { serviceRps: 990, sameSqlRps: 1_800, statements: 16 }),
      numbers('folders', 'write', { serviceRps: 40, sameSqlRps: 100, statements: 9 }),
    ]);
    expect(verdicts.slice(2)).toEqual([
      ['spread: >= 60% of its same-SQL baseline', true, '67%'],
      ['spread: at most 6 statements per request', true, '6'],
      ['hot: >= 60% of its same-SQL baseline', false, '55%'],
      ['hot: at most 6 statements per request', false, '16'],
      ['folders: >= 40% of its same-SQL baseline', true, '40%'],
      ["spread: >= 20% of me's requests per second", true, '20.0%'],
      ["hot: >= 10% of me's requests per second", false, '9.9%'],
    ]);
  });

  it('judges the replay at 3x the first execution and RSS growth under 10%', () => {
    const verdicts = verdictsOf(
      [
        numbers('hot', 'write', { serviceRps: 100, sameSqlRps: 150 }),
        numbers('replay', 'write', { serviceRps: 290, sameSqlRps: 500 }),
      ],
      [memory],
    );
    expect(verdicts.slice(-2)).toEqual([
      ['Idempotent replay >= 3x the first execution', false, '2.9x'],
      ['svc: RSS growth < 10% over the long run', true, '9.0%'],
    ]);
  });

  it('judges the same-SQL baseline against the latency and share bars, which apply to it, and no other', () => {
    const verdicts = judgeTargets(
      [
        numbers('me', 'read', { serviceRps: 10_000, sameSqlRps: 20_000, serviceP99Ms: 16, sameSqlP99Ms: 9 }),
        numbers('list', 'read', { serviceP99Ms: 31, sameSqlP99Ms: 33 }),
        numbers('spread', 'write', { serviceRps: 1_500, sameSqlRps: 1_900 }),
        numbers('hot', 'write', { serviceRps: 700, sameSqlRps: 1_100 }),
      ],
      [memory],
      plan,
    );
    const bySameSql = verdicts.map((verdict) => [verdict.target, verdict.sameSql]);
    expect(bySameSql).toEqual([
      ['me: >= 75% of its same-SQL baseline', undefined],
      ['me: p99 <= 15 ms', { met: true, detail: '9 ms' }],
      ['list: >= 60% of its same-SQL baseline', undefined],
      ['list: p99 <= 25 ms', { met: false, detail: '33 ms' }],
      ['spread: >= 60% of its same-SQL baseline', undefined],
      ['spread: at most 6 statements per request', undefined],
      ['hot: >= 60% of its same-SQL baseline', undefined],
      ['hot: at most 6 statements per request', undefined],
      // Against the service's reference rate, the target's own denominator.
      ["spread: >= 20% of me's requests per second", { met: false, detail: '19.0%' }],
      ["hot: >= 10% of me's requests per second", { met: true, detail: '11.0%' }],
      ['svc: RSS growth < 10% over the long run', undefined],
    ]);
  });

  it('leaves out the targets that compare rows when either row was not measured', () => {
    const targets = verdictsOf([numbers('hot', 'write')]).map(([target]) => target);
    expect(targets).not.toContainEqual(expect.stringContaining('replay'));
    expect(targets).not.toContainEqual(expect.stringContaining('requests per second'));
  });
});

describe('comparing ratios with the previous run', () => {
  const row = (id: string, serviceRps: number, sameSqlRps: number, nodeHttpRps = 40_000): RatioInputs => ({
    id,
    label: id,
    kind: 'read',
    statements: 1,
    serviceRps,
    serviceP99Ms: 10,
    sameSqlRps,
    sameSqlP99Ms: 5,
    nodeHttpRps,
  });
  const plan = { creates: [{ id: 'create', share: 0.2 }], reference: 'me' };

  it('names each ratio of a run: against same-SQL, against node:http, and each create against the reference', () => {
    const ratios = ratiosOf([row('me', 8_000, 10_000), row('create', 400, 500)], plan);
    expect(ratios.map((ratio) => [ratio.key, ratio.value])).toEqual([
      ['me:same-sql', 0.8],
      ['me:node-http', 0.2],
      ['create:same-sql', 0.8],
      ['create:node-http', 0.01],
      ['create:me', 0.05],
    ]);
  });

  it('marks a change of more than 10% either way as notable, and 10% or less as not', () => {
    const previous = ratiosOf([row('me', 6_000, 10_000), row('create', 400, 1_000)], plan);
    const current = ratiosOf([row('me', 6_600, 10_000), row('create', 300, 1_000)], plan);
    const changes = compareRatios(previous, current);
    const byKey = Object.fromEntries(changes.map((change) => [change.key, change]));
    expect(byKey['me:same-sql']).toMatchObject({ before: 0.6, now: 0.66, notable: false });
    expect(byKey['me:same-sql']!.change).toBeCloseTo(0.1);
    expect(byKey['create:same-sql']).toMatchObject({ before: 0.4, now: 0.3, notable: true });
    expect(byKey['create:same-sql']!.change).toBeCloseTo(-0.25);
    expect(byKey['create:me']!.notable).toBe(true);
    expect(isNotable(0.1000001)).toBe(true);
    expect(isNotable(-0.1000001)).toBe(true);
    expect(isNotable(0.1)).toBe(false);
    expect(isNotable(-0.05)).toBe(false);
  });

  it('shows a ratio the previous run did not have as new, and one that was 0 without a change', () => {
    const changes = compareRatios(
      [{ key: 'a', label: 'a', value: 0 }],
      [
        { key: 'a', label: 'a', value: 0.5 },
        { key: 'b', label: 'b', value: 0.5 },
      ],
    );
    expect(changes.map((change) => [change.before, change.change, change.notable])).toEqual([
      [0, undefined, false],
      [undefined, undefined, false],
    ]);
  });

  it('writes the comparison as a Markdown table with the notable changes, and only those, in bold', () => {
    const comparison: Comparison = {
      previousDate: '2026-11-24T19:22:31.000Z',
      caveat: undefined,
      changes: compareRatios(
        [
          { key: 'up', label: 'GET /up: service / same-SQL', value: 0.59 },
          { key: 'same', label: 'GET /same: service / same-SQL', value: 0.6 },
          { key: 'small', label: 'POST /small / GET /me (req/s)', value: 0.015 },
        ],
        [
          { key: 'up', label: 'GET /up: service / same-SQL', value: 0.66 },
          { key: 'same', label: 'GET /same: service / same-SQL', value: 0.62 },
          { key: 'small', label: 'POST /small / GET /me (req/s)', value: 0.012 },
          { key: 'new', label: 'GET /new: service / same-SQL', value: 0.7 },
        ],
      ),
    };
    const lines = renderComparison(comparison).split('\n');
    expect(lines[0]).toContain('previous run (2026-11-24 19:22 UTC)');
    expect(lines.slice(2)).toEqual([
      '| Ratio | Previous | Now | Change |',
      '|---|---:|---:|---:|',
      '| **GET /up: service / same-SQL** | 59% | 66% | **+11.9%** |',
      '| GET /same: service / same-SQL | 60% | 62% | +3.3% |',
      '| **POST /small / GET /me (req/s)** | 1.5% | 1.2% | **-20.0%** |',
      '| GET /new: service / same-SQL | new | 70% | - |',
    ]);
    expect(renderComparisonLines(comparison).slice(1)).toEqual([
      '>> GET /up: service / same-SQL: 59% -> 66% (+11.9%)',
      '   GET /same: service / same-SQL: 60% -> 62% (+3.3%)',
      '>> POST /small / GET /me (req/s): 1.5% -> 1.2% (-20.0%)',
      '   GET /new: service / same-SQL: new -> 70%',
    ]);
    const report = renderResults(run, [], [], [], [], comparison);
    expect(report).toContain('| **GET /up: service / same-SQL** | 59% | 66% | **+11.9%** |');
    expect(renderResults(run, [], [], [], [])).not.toContain('previous run');
  });
});

describe('rendering the targets', () => {
  it('shows the same-SQL baseline beside the service where the bar applies to it, and counts the misses it shares', () => {
    const verdicts = [
      { target: 'list: p99 <= 25 ms', met: false, detail: '31 ms', sameSql: { met: false, detail: '33 ms' } },
      { target: 'me: p99 <= 15 ms', met: false, detail: '16 ms', sameSql: { met: true, detail: '9 ms' } },
      { target: 'me: >= 75% of its same-SQL baseline', met: false, detail: '44%' },
      { target: 'svc: RSS growth < 10% over the long run', met: true, detail: '1.0%' },
    ];
    const report = renderResults(run, [], [], [], verdicts);
    expect(report).toContain('- **not met**: list: p99 <= 25 ms (31 ms; same-SQL baseline: 33 ms, not met either)');
    expect(report).toContain('- **not met**: me: p99 <= 15 ms (16 ms; same-SQL baseline: 9 ms)');
    expect(report).toContain('- **not met**: me: >= 75% of its same-SQL baseline (44%)');
    expect(report).toContain("1 of the 3 targets not met are missed by the row's same-SQL baseline too");
    expect(renderResults(run, [], [], [], verdicts.slice(1))).not.toContain('missed by the row');
  });
});

describe('rendering memory', () => {
  it("shows each quarter's lowest and highest reading, and growth as the second half's lowest against the first's", () => {
    const memory: MemoryNumbers = {
      service: 'main-api',
      endpoint: 'GET /me',
      bootKib: 170 * 1024,
      quarters: [
        { floorKib: 200 * 1024, peakKib: 250 * 1024 },
        { floorKib: 201 * 1024, peakKib: 290 * 1024 },
        { floorKib: 199 * 1024, peakKib: 240 * 1024 },
        { floorKib: 210 * 1024, peakKib: 260 * 1024 },
      ],
    };
    const report = renderResults(run, [], [], [memory], []);
    expect(report).toContain(
      '| main-api | GET /me | 170 MiB | 200 MiB - 250 MiB, 201 MiB - 290 MiB, 199 MiB - 240 MiB, 210 MiB - 260 MiB | -0.5% |',
    );
    expect(judgeTargets([], [memory], { strictReads: [], creates: [], reference: 'me' })).toEqual([
      { target: 'main-api: RSS growth < 10% over the long run', met: true, detail: '-0.5%' },
    ]);
  });
});

describe('results as JSON', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-results-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('writes the results beside the Markdown and reads them back, the ratios included', () => {
    const file = path.join(dir, 'benchmarks.json');
    const ratios = [{ key: 'me:same-sql', label: 'GET /me: service / same-SQL', value: 0.61 }];
    writeResultsJson(file, resultsOf(run, { rows: [], skipped: [], memory: [], ratios, verdicts: [] }));
    const read = readResultsJson(file);
    expect(read).toMatchObject({ date: '2026-11-26T10:00:00.000Z', ratios, run: { connections: 50, rounds: 3 } });
    expect(jsonBeside('/repo/docs/benchmarks.md')).toBe('/repo/docs/benchmarks.json');
  });

  it('reads no results from a missing file, and refuses a file that is not results', () => {
    expect(readResultsJson(path.join(dir, 'missing.json'))).toBeUndefined();
    const other = path.join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ name: 'not results' }));
    expect(() => readResultsJson(other)).toThrow(/not a bench results file/);
  });

  it('says how two runs were made differently, and nothing when they were not', () => {
    const previous = resultsOf(run, { rows: [], skipped: [], memory: [], ratios: [], verdicts: [] });
    const { date: _date, ...same } = run;
    expect(settingsCaveat(previous, same)).toBeUndefined();
    expect(settingsCaveat(previous, { ...same, durationS: 3, rounds: 1 })).toBe(
      'The runs were made differently (seconds per row 10 then, 3 now; rounds 3 then, 1 now).',
    );
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
