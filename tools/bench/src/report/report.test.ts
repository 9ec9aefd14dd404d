import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadResult } from '../load.js';
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
import {
  type CpuProfile,
  type ProfileSummary,
  packageOf,
  renderPerRequestComparison,
  summariseProfile,
} from './cpu-profile.js';
import {
  type EndpointRow,
  RESULTS_END,
  RESULTS_START,
  type RunDescription,
  renderConsoleTable,
  renderConsoleVerdict,
  renderResults,
  writeResults,
} from './markdown.js';
import { readResultsJson, resultsOf, settingsCaveat, writeResultsJson } from './results-file.js';
import {
  type CpuNumbers,
  type EndpointNumbers,
  judgeTargets,
  type MemoryNumbers,
  type TargetPlan,
  type TargetVerdict,
} from './targets.js';

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
  cpu: { requests: 5_000, samples: 3, connections: 10 },
  memoryRequests: 200_000,
  logLevel: 'info',
  poolSize: 10,
  loadAverage: { start: 1, end: 2 },
};

const cpu = (
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
    cpu: cpu(300, 200),
    ...extra,
  });
  const plan: TargetPlan = { creates: ['spread', 'hot'], replay: { firstId: 'hot', replayId: 'replay' } };
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
    judgeTargets(endpoints, memories, plan).map((verdict) => [verdict.target, verdict.status, verdict.detail]);

  it("judges every row by the service's CPU per request against its same-SQL baseline's: 2.1x is not met, 2.0x is", () => {
    expect(
      verdictsOf([
        numbers('me', 'read', { cpu: cpu(210, 100, { serviceP99Ms: 3, sameSqlP99Ms: 1.5 }) }),
        numbers('list', 'read', { statements: 2, cpu: cpu(800, 400) }),
        numbers('folders', 'write', { statements: 6, cpu: cpu(1_995, 1_000) }),
        numbers('decision', 'write', { statements: 7, cpu: cpu(2_010, 1_000) }),
      ]),
    ).toEqual([
      [
        "me: service CPU per request <= 2.0x its same-SQL baseline's",
        'not met',
        '2.10x: 210 µs against 100 µs; 1 statement per request; p99 at 10 connections 3 ms against 1.5 ms',
      ],
      [
        "list: service CPU per request <= 2.0x its same-SQL baseline's",
        'met',
        '2.00x: 800 µs against 400 µs; 2 statements per request; p99 at 10 connections 4 ms against 2 ms',
      ],
      // Judged as shown, to the hundredth: 1.995 shows as 2.00x and is met, 2.01x is not.
      [
        "folders: service CPU per request <= 2.0x its same-SQL baseline's",
        'met',
        '2.00x: 1,995 µs against 1,000 µs; 6 statements per request; p99 at 10 connections 4 ms against 2 ms',
      ],
      [
        "decision: service CPU per request <= 2.0x its same-SQL baseline's",
        'not met',
        '2.01x: 2,010 µs against 1,000 µs; 7 statements per request; p99 at 10 connections 4 ms against 2 ms',
      ],
    ]);
  });

  it('judges the CPU target on CPU alone: throughput and p99 at 50 connections, however far off, are not judged', () => {
    const verdicts = judgeTargets(
      [numbers('me', 'read', { serviceRps: 100, sameSqlRps: 10_000, serviceP99Ms: 900, cpu: cpu(150, 100) })],
      [],
      plan,
    );
    expect(verdicts.map((verdict) => [verdict.target, verdict.status])).toEqual([
      ["me: service CPU per request <= 2.0x its same-SQL baseline's", 'met'],
    ]);
  });

  it('reports a missing CPU measurement as not measured, with why, never as met', () => {
    const verdicts = judgeTargets(
      [
        numbers('unsampled', 'read', { cpu: undefined }),
        numbers('failing', 'write', { cpu: cpu(300, 200, { failures: 12 }) }),
        numbers('uncounted', 'read', { cpu: cpu(100, 0) }),
      ],
      [],
      plan,
      [{ label: 'skipped', reason: 'it answers 500 (boom)' }],
    );
    expect(verdicts.map((verdict) => [verdict.target, verdict.status, verdict.detail])).toEqual([
      [
        "unsampled: service CPU per request <= 2.0x its same-SQL baseline's",
        'not measured',
        'no CPU samples were taken',
      ],
      [
        "failing: service CPU per request <= 2.0x its same-SQL baseline's",
        'not measured',
        '12 requests failed during the CPU samples',
      ],
      [
        "uncounted: service CPU per request <= 2.0x its same-SQL baseline's",
        'not measured',
        'no CPU time was counted (service 100 µs, same-SQL 0 µs)',
      ],
      [
        "skipped: service CPU per request <= 2.0x its same-SQL baseline's",
        'not measured',
        'not run: it answers 500 (boom)',
      ],
    ]);
    expect(verdicts.some((verdict) => verdict.status === 'met')).toBe(false);
  });

  it("holds session creates to 6 statements, and retires their share of another row's requests per second", () => {
    const verdicts = verdictsOf([
      numbers('me', 'read', { serviceRps: 10_000, sameSqlRps: 10_000 }),
      numbers('spread', 'write', { serviceRps: 10, sameSqlRps: 3_000, statements: 6 }),
      numbers('hot', 'write', { serviceRps: 9, sameSqlRps: 1_800, statements: 16 }),
    ]);
    expect(verdicts.slice(3)).toEqual([
      ['spread: at most 6 statements per request', 'met', '6'],
      ['hot: at most 6 statements per request', 'not met', '16'],
    ]);
    expect(verdicts.map(([target]) => target)).not.toContainEqual(expect.stringContaining('requests per second'));
    expect(verdicts.map(([target]) => target)).not.toContainEqual(expect.stringContaining('of its same-SQL baseline'));
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
      ['Idempotent replay >= 3x the first execution', 'not met', '2.9x'],
      ['svc: RSS growth < 10% over the long run', 'met', '9.0%'],
    ]);
  });

  it('reports the replay as not measured when the first execution answered nothing', () => {
    const verdicts = verdictsOf([numbers('hot', 'write', { serviceRps: 0 }), numbers('replay', 'write')]);
    expect(verdicts.at(-1)).toEqual([
      'Idempotent replay >= 3x the first execution',
      'not measured',
      'the first execution answered nothing',
    ]);
  });

  it('leaves out the targets that compare rows when either row was not in the run', () => {
    const targets = verdictsOf([numbers('hot', 'write')]).map(([target]) => target);
    expect(targets).not.toContainEqual(expect.stringContaining('replay'));
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
    cpu: cpu(250, 100),
  });

  it('names each ratio of a run: CPU per request against same-SQL, throughput against same-SQL and node:http', () => {
    const ratios = ratiosOf([row('me', 8_000, 10_000), { ...row('create', 400, 500), cpu: undefined }]);
    expect(ratios.map((ratio) => [ratio.key, ratio.value, ratio.unit])).toEqual([
      ['me:cpu', 2.5, 'times'],
      ['me:same-sql', 0.8, undefined],
      ['me:node-http', 0.2, undefined],
      // No CPU samples, no CPU ratio; and no share of another row's rate any more.
      ['create:same-sql', 0.8, undefined],
      ['create:node-http', 0.01, undefined],
    ]);
  });

  it('marks a change of more than 10% either way as notable, and 10% or less as not', () => {
    const previous = ratiosOf([row('me', 6_000, 10_000), { ...row('create', 400, 1_000), cpu: cpu(150, 100) }]);
    const current = ratiosOf([row('me', 6_600, 10_000), { ...row('create', 300, 1_000), cpu: cpu(210, 100) }]);
    const changes = compareRatios(previous, current);
    const byKey = Object.fromEntries(changes.map((change) => [change.key, change]));
    expect(byKey['me:same-sql']).toMatchObject({ before: 0.6, now: 0.66, notable: false });
    expect(byKey['me:same-sql']!.change).toBeCloseTo(0.1);
    expect(byKey['create:same-sql']).toMatchObject({ before: 0.4, now: 0.3, notable: true });
    expect(byKey['create:same-sql']!.change).toBeCloseTo(-0.25);
    expect(byKey['create:cpu']).toMatchObject({ before: 1.5, now: 2.1, unit: 'times', notable: true });
    expect(byKey['me:cpu']).toMatchObject({ before: 2.5, now: 2.5, notable: false });
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
          { key: 'small', label: 'POST /small: service / node:http', value: 0.015 },
          { key: 'cpu', label: 'GET /up: CPU per request, service / same-SQL', value: 2.4, unit: 'times' },
        ],
        [
          { key: 'up', label: 'GET /up: service / same-SQL', value: 0.66 },
          { key: 'same', label: 'GET /same: service / same-SQL', value: 0.62 },
          { key: 'small', label: 'POST /small: service / node:http', value: 0.012 },
          { key: 'cpu', label: 'GET /up: CPU per request, service / same-SQL', value: 1.8, unit: 'times' },
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
      '| **POST /small: service / node:http** | 1.5% | 1.2% | **-20.0%** |',
      '| **GET /up: CPU per request, service / same-SQL** | 2.40x | 1.80x | **-25.0%** |',
      '| GET /new: service / same-SQL | new | 70% | - |',
    ]);
    expect(renderComparisonLines(comparison).slice(1)).toEqual([
      '>> GET /up: service / same-SQL: 59% -> 66% (+11.9%)',
      '   GET /same: service / same-SQL: 60% -> 62% (+3.3%)',
      '>> POST /small: service / node:http: 1.5% -> 1.2% (-20.0%)',
      '>> GET /up: CPU per request, service / same-SQL: 2.40x -> 1.80x (-25.0%)',
      '   GET /new: service / same-SQL: new -> 70%',
    ]);
    const report = renderResults(run, [], [], [], [], comparison);
    expect(report).toContain('| **GET /up: service / same-SQL** | 59% | 66% | **+11.9%** |');
    expect(renderResults(run, [], [], [], [])).not.toContain('previous run');
  });
});

describe('rendering the rows and the targets', () => {
  const load = (requestsPerSecond: number, p50Ms: number, p99Ms: number, failures = 0): LoadResult => ({
    requestsPerSecond,
    p50Ms,
    p99Ms,
    total: 1_000,
    failures,
    statusCounts: { '200': 1_000 - failures },
  });
  const side = (usPerRequest: number, latency: LoadResult) => ({ samplesUs: [usPerRequest], usPerRequest, latency });
  const measured: EndpointRow = {
    id: 'me',
    label: 'GET /me',
    kind: 'read',
    statements: 1,
    service: load(5_486, 7, 25),
    sameSql: load(12_450, 3, 12),
    nodeHttp: load(31_958, 1, 4),
    cpu: {
      connections: 10,
      requestsPerSample: 5_000,
      service: side(212.4, load(3_000, 2, 6)),
      sameSql: side(101, load(8_000, 1, 2.5, 3)),
    },
  };

  it('puts CPU per request, its ratio, statements and the p99 at the CPU connections in the judged table', () => {
    const report = renderResults(
      run,
      [measured, { ...measured, id: 'unsampled', label: 'GET /unsampled', cpu: undefined }],
      [],
      [],
      [],
    );
    expect(report).toContain(
      'CPU per request, judged (the service at most 2.0x its same-SQL baseline), at 10 connections:',
    );
    expect(report).toContain('| GET /me | 1 | 212 | 101 (3 failed) | **2.10x** | 2 / 6 | 1 / 2.5 |');
    expect(report).toContain('| GET /unsampled | 1 | not measured | | | | |');
    expect(report).toContain('3 samples of 5,000 requests at 10 connections each');
  });

  it("keeps the throughput at the run's connections in a table of its own, not judged", () => {
    const report = renderResults(run, [measured], [{ label: 'GET /gone', reason: 'it answers 404' }], [], []);
    expect(report).toContain('Throughput at 50 connections, reported and not judged');
    expect(report).toContain('| GET /me | 5,486 | 7 / 25 | 12,450 | 3 / 12 | 44% | 31,958 | 17% |');
    expect(report).toContain('| GET /gone | not measured: it answers 404 | | | | | | |');
  });

  it('marks what is not met or not measured in bold, and counts each', () => {
    const verdicts: TargetVerdict[] = [
      { target: 'list: CPU', status: 'not met', detail: '2.10x' },
      { target: 'me: CPU', status: 'not measured', detail: 'no CPU samples were taken' },
      { target: 'svc: RSS growth < 10% over the long run', status: 'met', detail: '1.0%' },
    ];
    const report = renderResults(run, [], [], [], verdicts);
    expect(report).toContain('- **not met**: list: CPU (2.10x)');
    expect(report).toContain('- **not measured**: me: CPU (no CPU samples were taken)');
    expect(report).toContain('- met: svc: RSS growth < 10% over the long run (1.0%)');
    expect(report).toContain('1 of 3 targets met, 1 not met, 1 not measured.');
    expect(renderConsoleVerdict(verdicts[1]!)).toBe('NOT MEASURED  me: CPU (no CPU samples were taken)');
    expect(renderConsoleVerdict(verdicts[2]!)).toBe('MET           svc: RSS growth < 10% over the long run (1.0%)');
  });

  it('shows CPU per request and its ratio on the console table, and "not measured" without samples', () => {
    const [header, row, unsampled] = renderConsoleTable([measured, { ...measured, cpu: undefined }]).split('\n');
    expect(header).toMatch(/^endpoint\s+statements\s+CPU µs\s+same-SQL CPU µs\s+CPU ratio\s+p99 \(CPU samples\)/);
    expect(row).toMatch(/^GET \/me\s+1\s+212\s+101\s+2\.10x\s+6 ms\s+2\.5 ms\s+5,486\s+25 ms\s+12,450\s+44%\s+31,958$/);
    expect(unsampled).toMatch(/^GET \/me\s+1\s+not measured\s+-\s+-\s+-\s+-\s+5,486/);
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
    expect(judgeTargets([], [memory], { creates: [] })).toEqual([
      { target: 'main-api: RSS growth < 10% over the long run', status: 'met', detail: '-0.5%' },
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
    writeFileSync(other, JSON.stringify({ format: 'platform-bench-results/9', date: '2026-11-26', ratios: [] }));
    expect(() => readResultsJson(other)).toThrow(/not a bench results file/);
  });

  it('stores each row with its CPU measurement and each verdict with its status', () => {
    const file = path.join(dir, 'with-cpu.json');
    const row: EndpointRow = {
      id: 'me',
      label: 'GET /me',
      kind: 'read',
      statements: 1,
      service: { requestsPerSecond: 10, p50Ms: 1, p99Ms: 2, total: 10, failures: 0, statusCounts: { '200': 10 } },
      sameSql: { requestsPerSecond: 20, p50Ms: 1, p99Ms: 2, total: 20, failures: 0, statusCounts: { '200': 20 } },
      nodeHttp: { requestsPerSecond: 40, p50Ms: 1, p99Ms: 2, total: 40, failures: 0, statusCounts: { '200': 40 } },
      cpu: undefined,
    };
    const verdicts: TargetVerdict[] = [{ target: 'GET /me: CPU', status: 'not measured', detail: 'no CPU samples' }];
    writeResultsJson(file, resultsOf(run, { rows: [row], skipped: [], memory: [], ratios: [], verdicts }));
    const stored = JSON.parse(readFileSync(file, 'utf8'));
    expect(stored).toMatchObject({
      format: 'platform-bench-results/2',
      run: { cpu: { requests: 5_000, samples: 3, connections: 10 } },
      verdicts: [{ status: 'not measured' }],
    });
    // Not sampled is written as null, not left out.
    expect(stored.rows[0].cpu).toBeNull();
  });

  it('compares with results written before the CPU samples (format /1), whose ratios read the same', () => {
    const file = path.join(dir, 'format-1.json');
    const { date: _date, cpu: _cpu, ...before } = run;
    const ratios = [{ key: 'me:same-sql', label: 'GET /me: service / same-SQL', value: 0.44 }];
    writeFileSync(
      file,
      JSON.stringify({ format: 'platform-bench-results/1', date: '2026-11-27T15:01:00.000Z', run: before, ratios }),
    );
    const previous = readResultsJson(file)!;
    expect(previous.ratios).toEqual(ratios);
    const { date: _now, ...current } = run;
    expect(settingsCaveat(previous, current)).toBeUndefined();
  });

  it('says how two runs were made differently, and nothing when they were not', () => {
    const previous = resultsOf(run, { rows: [], skipped: [], memory: [], ratios: [], verdicts: [] });
    const { date: _date, ...same } = run;
    expect(settingsCaveat(previous, same)).toBeUndefined();
    expect(settingsCaveat(previous, { ...same, durationS: 3, rounds: 1 })).toBe(
      'The runs were made differently (seconds per row 10 then, 3 now; rounds 3 then, 1 now).',
    );
    expect(settingsCaveat(previous, { ...same, cpu: { requests: 1_000, samples: 3, connections: 10 } })).toBe(
      'The runs were made differently (requests per CPU sample 5000 then, 1000 now).',
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
