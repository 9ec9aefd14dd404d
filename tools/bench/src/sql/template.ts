import { isDeepStrictEqual } from 'node:util';
import type postgres from 'postgres';
import { type QueryStep, statementCount, type TraceStep } from './trace.js';

// A template is an endpoint's recorded SQL made replayable: the same statements with the same parameters,
// except those that differ per request. Those are found by recording the endpoint twice and comparing, and
// become slots filled on each replay.

/** Where a per-request part of a parameter comes from when the template is replayed. */
type Slot =
  /** A request input that differs per request: `header:<name>` or `body:<field>`. */
  | { kind: 'input'; name: string }
  /** A value an earlier statement of the same request answered (an id the database generated). */
  | { kind: 'result'; step: number; row: number; column: number }
  /** An id the application generated: a fresh UUID per request, the same one wherever it reappears. */
  | { kind: 'uuid'; index: number }
  /**
   * Another id the application generated (a `msg_...` event id): a fresh random value per request, with the
   * recorded value's prefix (up to its last `_`) and length.
   */
  | { kind: 'token'; index: number; prefix: string; length: number }
  /**
   * A timestamp the application took from its clock, or that far from it (an expiry 24 hours on, a claim's end 30
   * minutes on): `offsetMs` from the request's first clock reading, absent when 0.
   */
  | { kind: 'now'; offsetMs?: number };

export type Segment = { text: string } | { slot: Slot };

export type TemplateParam = { constant: unknown } | { segments: Segment[] };

export interface TemplateQuery {
  kind: 'query';
  /** Position among the template's statements, in execution order (result slots refer to it). */
  index: number;
  query: string;
  params: TemplateParam[];
  options: postgres.UnsafeQueryOptions;
  arrayMode: boolean;
}

interface TemplateTransaction {
  kind: 'transaction';
  savepoint: boolean;
  steps: TemplateStep[];
}

export type TemplateStep = TemplateQuery | TemplateTransaction;

export interface SqlTemplate {
  steps: TemplateStep[];
  /** Statements per request, BEGIN and COMMIT included. */
  statements: number;
  /** Statements whose rows a later parameter needs. */
  resultSteps: number[];
}

/** The request inputs of one recording, by slot name (`header:x-idempotency-key`, `body:name`). */
export type RecordedInputs = Record<string, string>;

export class TraceMismatchError extends Error {
  override readonly name = 'TraceMismatchError';
}

const UUID_SOURCE = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID_ANYWHERE = new RegExp(UUID_SOURCE, 'g');
const UUID_EXACTLY = new RegExp(`^${UUID_SOURCE}$`);
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}(:?\d{2})?)?$/;
// Word-like runs this long that one recording has and the other has nowhere are ids made per request.
// Written as an emulated atomic group, so a run followed by `-` (the start of a UUID) is not cut shorter.
const OPAQUE_SOURCE = '(?=([A-Za-z0-9_]{16,}))\\1(?![-A-Za-z0-9_])';
// Shorter answered values (a status, a small number) are too likely to appear in a parameter by chance.
const MIN_RESULT_TOKEN_LENGTH = 8;
// Clock readings of one request this close together are the same "now"; a timestamp further from the request's
// first reading, by the same amount in both recordings, is a time the application computed from it.
const CLOCK_JITTER_MS = 1_000;

interface Pair {
  first: QueryStep;
  second: QueryStep;
  index: number;
}

/**
 * Compiles two recordings of one endpoint, made with different per-request inputs, into a template.
 * Throws TraceMismatchError when the two ran different statements.
 */
export function compileTemplate(
  first: readonly TraceStep[],
  second: readonly TraceStep[],
  inputs: { first: RecordedInputs; second: RecordedInputs },
): SqlTemplate {
  const pairs: Pair[] = [];
  const shape = pairSteps(first, second, pairs);
  const constantUuids = new Set<string>();
  for (const { first: a, second: b } of pairs) {
    a.params.forEach((param, position) => {
      if (typeof param === 'string' && param === b.params[position]) {
        for (const match of param.matchAll(UUID_ANYWHERE)) constantUuids.add(match[0].toLowerCase());
      }
    });
  }

  const varyingInputs = Object.entries(inputs.first).filter(([name, value]) => inputs.second[name] !== value);
  const secondText = pairs.flatMap(({ second: b }) => b.params.filter((param) => typeof param === 'string')).join('\n');
  const generated: Generated = { uuids: new Map(), tokens: new Map(), secondText };
  const resultSteps = new Set<number>();
  const templates = new Map<Pair, TemplateQuery>();
  const clock = firstClockReadings(pairs);

  for (const pair of pairs) {
    const answered = answeredTokens(pairs.filter((earlier) => earlier.index < pair.index));
    const params = pair.first.params.map((param, position): TemplateParam => {
      const other = pair.second.params[position];
      if (isDeepStrictEqual(param, other) || typeof param !== 'string') return { constant: param };
      if (typeof other === 'string' && isTimestamp(param) && isTimestamp(other)) {
        return { segments: [{ slot: nowSlot(Date.parse(param) - clock.first, Date.parse(other) - clock.second) }] };
      }
      const segments = segmentsOf(param, varyingInputs, answered, constantUuids, generated);
      for (const segment of segments)
        if ('slot' in segment && segment.slot.kind === 'result') resultSteps.add(segment.slot.step);
      return { segments };
    });
    templates.set(pair, {
      kind: 'query',
      index: pair.index,
      query: pair.first.query,
      params,
      options: pair.first.options,
      arrayMode: pair.first.arrayMode,
    });
  }

  const build = (steps: readonly ShapeStep[]): TemplateStep[] =>
    steps.map((step) =>
      'pair' in step
        ? templates.get(step.pair)!
        : { kind: 'transaction', savepoint: step.savepoint, steps: build(step.steps) },
    );
  return {
    steps: build(shape),
    statements: statementCount(first),
    resultSteps: [...resultSteps].sort((a, b) => a - b),
  };
}

function isTimestamp(value: string): boolean {
  return TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

/** Each recording's first timestamp parameter that differs between them: the request's "now". */
function firstClockReadings(pairs: readonly Pair[]): { first: number; second: number } {
  for (const { first, second } of pairs) {
    for (const [position, param] of first.params.entries()) {
      const other = second.params[position];
      if (typeof param === 'string' && typeof other === 'string' && param !== other && isTimestamp(param)) {
        if (isTimestamp(other)) return { first: Date.parse(param), second: Date.parse(other) };
      }
    }
  }
  return { first: 0, second: 0 };
}

/** The clock slot of a timestamp `firstOffset` and `secondOffset` ms from its recording's first reading. */
function nowSlot(firstOffset: number, secondOffset: number): Slot {
  const consistent = Math.abs(firstOffset - secondOffset) <= CLOCK_JITTER_MS;
  return consistent && Math.abs(firstOffset) > CLOCK_JITTER_MS
    ? { kind: 'now', offsetMs: firstOffset }
    : { kind: 'now' };
}

type ShapeStep = { pair: Pair } | { savepoint: boolean; steps: ShapeStep[] };

function pairSteps(first: readonly TraceStep[], second: readonly TraceStep[], pairs: Pair[]): ShapeStep[] {
  if (first.length !== second.length) {
    throw new TraceMismatchError(`The two recordings ran ${first.length} and ${second.length} steps`);
  }
  return first.map((a, position) => {
    const b = second[position]!;
    if (a.kind === 'query' && b.kind === 'query') {
      if (a.query !== b.query || a.params.length !== b.params.length) {
        throw new TraceMismatchError(`The recordings differ at statement ${pairs.length + 1}:\n${a.query}\n${b.query}`);
      }
      const pair: Pair = { first: a, second: b, index: pairs.length };
      pairs.push(pair);
      return { pair };
    }
    if (a.kind === 'transaction' && b.kind === 'transaction' && a.savepoint === b.savepoint) {
      return { savepoint: a.savepoint, steps: pairSteps(a.steps, b.steps, pairs) };
    }
    throw new TraceMismatchError(`The recordings differ in their transactions at statement ${pairs.length + 1}`);
  });
}

interface AnsweredToken {
  value: string;
  slot: Slot;
}

/** String values earlier statements answered that differ between the recordings: generated per request. */
function answeredTokens(earlier: readonly Pair[]): AnsweredToken[] {
  const tokens: AnsweredToken[] = [];
  for (const { first, second, index } of earlier) {
    for (const [rowIndex, row] of first.rows.entries()) {
      for (const [column, value] of row.entries()) {
        if (typeof value !== 'string' || value.length < MIN_RESULT_TOKEN_LENGTH) continue;
        if (second.rows[rowIndex]?.[column] === value) continue;
        tokens.push({ value, slot: { kind: 'result', step: index, row: rowIndex, column } });
      }
    }
  }
  return tokens;
}

interface Generated {
  uuids: Map<string, number>;
  tokens: Map<string, number>;
  /** Every string parameter of the second recording. */
  secondText: string;
}

function segmentsOf(
  text: string,
  varyingInputs: ReadonlyArray<[string, string]>,
  answered: readonly AnsweredToken[],
  constantUuids: ReadonlySet<string>,
  generated: Generated,
): Segment[] {
  // Known values first, longest first, so a request input or an answered id wins over the generic UUID rule.
  const known = new Map<string, Slot>();
  for (const [name, value] of varyingInputs) if (value !== '') known.set(value, { kind: 'input', name });
  for (const { value, slot } of answered) if (!known.has(value)) known.set(value, slot);
  const alternatives = [...known.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const pattern = new RegExp([...alternatives, UUID_SOURCE, OPAQUE_SOURCE].join('|'), 'g');

  const segments: Segment[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const token = match[0];
    const slot = known.get(token) ?? uuidSlot(token, constantUuids, generated.uuids) ?? tokenSlot(token, generated);
    if (slot === undefined) continue;
    if (match.index > last) segments.push({ text: text.slice(last, match.index) });
    segments.push({ slot });
    last = match.index + token.length;
  }
  if (last < text.length) segments.push({ text: text.slice(last) });
  return segments;
}

function uuidSlot(token: string, constantUuids: ReadonlySet<string>, uuidSlots: Map<string, number>): Slot | undefined {
  const uuid = token.toLowerCase();
  if (!UUID_EXACTLY.test(token) || constantUuids.has(uuid)) return undefined;
  let index = uuidSlots.get(uuid);
  if (index === undefined) {
    index = uuidSlots.size;
    uuidSlots.set(uuid, index);
  }
  return { kind: 'uuid', index };
}

function tokenSlot(token: string, generated: Generated): Slot | undefined {
  if (!/^[A-Za-z0-9_]{16,}$/.test(token) || generated.secondText.includes(token)) return undefined;
  let index = generated.tokens.get(token);
  if (index === undefined) {
    index = generated.tokens.size;
    generated.tokens.set(token, index);
  }
  return { kind: 'token', index, prefix: token.slice(0, token.lastIndexOf('_') + 1), length: token.length };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
