import { type EndpointNumbers, ratioToBaseline, type TargetPlan } from './targets.js';

// Regressions made visible (issue 21): every ratio a run reports is named, stored in its JSON, and compared with the
// same ratio of the previous run. A ratio that moved by more than a tenth of itself (docs/decisions.md#bench-results-json)
// is shown in bold.

/** A change of a ratio by more than this share of its previous value is notable (shown in bold). */
const NOTABLE_CHANGE = 0.1;

/** One ratio of a run, under a key that stays the same from run to run. */
export interface NamedRatio {
  /** `<endpoint id>:same-sql`, `<endpoint id>:node-http` or `<endpoint id>:<reference endpoint id>`. */
  key: string;
  label: string;
  value: number;
}

export interface RatioChange {
  key: string;
  label: string;
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
 * Every ratio of a run: each row against its same-SQL baseline and against bare node:http, and each session
 * create against the reference read (the plan's `creates`).
 */
export function ratiosOf(rows: readonly RatioInputs[], plan: Pick<TargetPlan, 'creates' | 'reference'>): NamedRatio[] {
  const ratios: NamedRatio[] = [];
  for (const row of rows) {
    ratios.push({ key: `${row.id}:same-sql`, label: `${row.label}: service / same-SQL`, value: ratioToBaseline(row) });
    ratios.push({
      key: `${row.id}:node-http`,
      label: `${row.label}: service / node:http`,
      value: row.nodeHttpRps > 0 ? row.serviceRps / row.nodeHttpRps : 0,
    });
  }
  const reference = rows.find((row) => row.id === plan.reference);
  for (const { id } of plan.creates) {
    const create = rows.find((row) => row.id === id);
    if (create === undefined || reference === undefined) continue;
    ratios.push({
      key: `${id}:${reference.id}`,
      label: `${create.label} / ${reference.label} (req/s)`,
      value: reference.serviceRps > 0 ? create.serviceRps / reference.serviceRps : 0,
    });
  }
  return ratios;
}

/** Each ratio of `current` with the same ratio of `previous`, in `current`'s order. */
export function compareRatios(previous: readonly NamedRatio[], current: readonly NamedRatio[]): RatioChange[] {
  const before = new Map(previous.map((ratio) => [ratio.key, ratio.value]));
  return current.map(({ key, label, value }) => {
    const old = before.get(key);
    const change = old === undefined || old === 0 ? undefined : value / old - 1;
    return { key, label, before: old, now: value, change, notable: change !== undefined && isNotable(change) };
  });
}

/**
 * Whether a relative change is large enough to show in bold: more than 10% either way (a change of exactly 10%,
 * which floating point may compute a hair above it, is not).
 */
export function isNotable(change: number): boolean {
  return Math.abs(change) > NOTABLE_CHANGE + 1e-9;
}

/** A ratio as the report shows it: whole percent, one decimal below 10%. */
function formatRatio(value: number): string {
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
      `| ${bold(change.label)} | ${change.before === undefined ? 'new' : formatRatio(change.before)} | ` +
        `${formatRatio(change.now)} | ${change.change === undefined ? '-' : bold(formatChange(change.change))} |`,
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
    const before = change.before === undefined ? 'new' : formatRatio(change.before);
    const moved = change.change === undefined ? '' : ` (${formatChange(change.change)})`;
    lines.push(`${change.notable ? '>> ' : '   '}${change.label}: ${before} -> ${formatRatio(change.now)}${moved}`);
  }
  return lines;
}
