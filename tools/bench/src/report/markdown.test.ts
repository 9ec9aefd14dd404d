import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadResult } from '../load.js';
import {
  type EndpointRow,
  RESULTS_END,
  RESULTS_START,
  renderConsoleTable,
  renderConsoleVerdict,
  renderResults,
  writeResults,
} from './markdown.js';
import { run } from './report-fixtures.js';
import { judgeTargets, type MemoryNumbers, type TargetVerdict } from './targets.js';

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
