import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jsonBeside } from '../options.js';
import type { EndpointRow } from './markdown.js';
import { run } from './report-fixtures.js';
import { readResultsJson, resultsOf, settingsCaveat, writeResultsJson } from './results-file.js';
import type { TargetVerdict } from './targets.js';

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
