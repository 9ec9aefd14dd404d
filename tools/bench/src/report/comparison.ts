import { cpuRatio, type EndpointNumbers, ratioToBaseline } from './targets.js';

// Regressions made visible (issue 21): every ratio a run reports is named, stored in its JSON, and compared with the
// same ratio of the previous run. A ratio that moved by more than a tenth of itself (docs/decisions.md#bench-results-json)
// is shown in bold.

/** A change of a ratio by more than this share of its previous value is notable (shown in bold). */
const NOTABLE_CHANGE = 0.1;

/** One ratio of a run, under a key that stays the same from run to run. */
export interface NamedRatio {
  /** `<endpoint id>:cpu`, `<endpoint id>:same-sql` or `<endpoint id>:node-http`. */
  key: string;
  label: string;
  value: number;
  /** `times`: a multiple, shown as `2.05x` (CPU per request); absent: a share, shown in percent (throughput). */
  unit?: 'times';
}

export interface RatioChange {
  key: string;
  label: string;
  unit?: 'times';
  /** Undefined for a ratio the previous run did not have. */
  before: number | undefined;
  now: number;
  /** now / before - 1; undefined without a previous value, or when it was 0. */
  change: number | undefined;
  notable: boolean;
}

/** The row numbers a ratio needs: EndpointNumbers plus the bare node:http server's throughput. */
export interface RatioInputs extends EndpointNumbers {
  nodeHttpRps: number;
}

/**
 * Every ratio of a run: each row's CPU per request against its same-SQL baseline's (where it was measured), and its
 * throughput against its same-SQL baseline's and against bare node:http.
 */
export function ratiosOf(rows: readonly RatioInputs[]): NamedRatio[] {
  const ratios: NamedRatio[] = [];
  for (const row of rows) {
    const cpu = cpuRatio(row.cpu);
    if (cpu !== undefined)
      ratios.push({
        key: `${row.id}:cpu`,
        label: `${row.label}: CPU per request, service / same-SQL`,
        value: cpu,
        unit: 'times',
      });
    ratios.push({ key: `${row.id}:same-sql`, label: `${row.label}: service / same-SQL`, value: ratioToBaseline(row) });
    ratios.push({
      key: `${row.id}:node-http`,
      label: `${row.label}: service / node:http`,
      value: row.nodeHttpRps > 0 ? row.serviceRps / row.nodeHttpRps : 0,
    });
  }
  return ratios;
}

/** Each ratio of `current` with the same ratio of `previous`, in `current`'s order. */
export function compareRatios(previous: readonly NamedRatio[], current: readonly NamedRatio[]): RatioChange[] {
  const before = new Map(previous.map((ratio) => [ratio.key, ratio.value]));
  return current.map(({ key, label, value, unit }) => {
    const old = before.get(key);
    const change = old === undefined || old === 0 ? undefined : value / old - 1;
    return {
      key,
      label,
      ...(unit === undefined ? {} : { unit }),
      before: old,
      now: value,
      change,
      notable: change !== undefined && isNotable(change),
    };
  });
}

/**
 * Whether a relative change is large enough to show in bold: more than 10% either way (a change of exactly 10%,
 * which floating point may compute a hair above it, is not).
 */
export function isNotable(change: number): boolean {
  return Math.abs(change) > NOTABLE_CHANGE + 1e-9;
}

/** A ratio as the report shows it: a multiple to the hundredth, a share in whole percent (one decimal below 10%). */
function formatRatio(value: number, unit: 'times' | undefined): string {
  if (unit === 'times') return `${value.toFixed(2)}x`;
  const percent = value * 100;
  return `${percent < 10 ? percent.toFixed(1) : percent.toFixed(0)}%`;
}

/** A relative change as the report shows it, signed: `+12.5%`, `-3.0%`. */
function formatChange(change: number): string {
  return `${change >= 0 ? '+' : ''}${(change * 100).toFixed(1)}%`;
}

export interface Comparison {
  /** When the previous run was made (ISO 8601). */
  previousDate: string;
  /** What differs in how the two runs were made (settings), which makes the comparison weaker; undefined if nothing. */
  caveat: string | undefined;
  changes: RatioChange[];
}

/** The comparison as Markdown: a table with every notable change in bold. */
export function renderComparison(comparison: Comparison): string {
  const lines = [
    `Change of each ratio since the previous run (${comparison.previousDate.slice(0, 16).replace('T', ' ')} UTC): ` +
      `now against before, relative; a change of more than ${NOTABLE_CHANGE * 100}% is in bold.` +
      (comparison.caveat === undefined ? '' : ` ${comparison.caveat}`),
    '',
    '| Ratio | Previous | Now | Change |',
    '|---|---:|---:|---:|',
  ];
  for (const change of comparison.changes) {
    const bold = (text: string) => (change.notable ? `**${text}**` : text);
    lines.push(
      `| ${bold(change.label)} | ${change.before === undefined ? 'new' : formatRatio(change.before, change.unit)} | ` +
        `${formatRatio(change.now, change.unit)} | ${change.change === undefined ? '-' : bold(formatChange(change.change))} |`,
    );
  }
  return lines.join('\n');
}

/** The comparison for the console: one line per ratio, notable changes marked with `>>`. */
export function renderComparisonLines(comparison: Comparison): string[] {
  const lines = [
    `Ratios against the previous run (${comparison.previousDate.slice(0, 16).replace('T', ' ')} UTC; >> marks a change of more than ${NOTABLE_CHANGE * 100}%)` +
      (comparison.caveat === undefined ? '' : `. ${comparison.caveat}`),
  ];
  for (const change of comparison.changes) {
    const before = change.before === undefined ? 'new' : formatRatio(change.before, change.unit);
    const moved = change.change === undefined ? '' : ` (${formatChange(change.change)})`;
    lines.push(
      `${change.notable ? '>> ' : '   '}${change.label}: ${before} -> ${formatRatio(change.now, change.unit)}${moved}`,
    );
  }
  return lines;
}
