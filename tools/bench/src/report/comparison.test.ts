import { describe, expect, it } from 'vitest';
import {
  type Comparison,
  compareRatios,
  isNotable,
  type RatioInputs,
  ratiosOf,
  renderComparison,
  renderComparisonLines,
} from './comparison.js';
import { renderResults } from './markdown.js';
import { cpu, run } from './report-fixtures.js';

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
