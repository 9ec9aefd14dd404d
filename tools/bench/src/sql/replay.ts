import { randomBytes, randomUUID } from 'node:crypto';
import type postgres from 'postgres';
import type { Segment, SqlTemplate, TemplateParam, TemplateStep } from './template.js';

/** Reads a request input by slot name (`header:<name>`, `body:<field>`); undefined when absent. */
export type InputReader = (name: string) => string | undefined;

/** What replaying needs of a postgres.js client or of one of its transactions. */
interface Client {
  unsafe: postgres.Sql['unsafe'];
  begin?(block: (tx: Client) => Promise<void>): Promise<unknown>;
  savepoint?(block: (tx: Client) => Promise<void>): Promise<unknown>;
}

interface RequestState {
  readInput: InputReader;
  uuids: string[];
  tokens: string[];
  /** The request's clock reading (ms), taken at its first timestamp. */
  now: number | undefined;
  results: unknown[][][];
  wanted: ReadonlySet<number>;
}

/** Runs a template's statements once, as one request of its endpoint would, through `sql`. */
export async function replayTemplate(sql: postgres.Sql, template: SqlTemplate, readInput: InputReader): Promise<void> {
  const state: RequestState = {
    readInput,
    uuids: [],
    tokens: [],
    now: undefined,
    results: [],
    wanted: wantedSteps(template),
  };
  await runSteps(sql as unknown as Client, template.steps, state);
}

const wantedCache = new WeakMap<SqlTemplate, ReadonlySet<number>>();

function wantedSteps(template: SqlTemplate): ReadonlySet<number> {
  let wanted = wantedCache.get(template);
  if (wanted === undefined) {
    wanted = new Set(template.resultSteps);
    wantedCache.set(template, wanted);
  }
  return wanted;
}

async function runSteps(sql: Client, steps: readonly TemplateStep[], state: RequestState): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'transaction') {
      const open = step.savepoint ? sql.savepoint : sql.begin;
      if (open === undefined)
        throw new Error(`This client cannot open a ${step.savepoint ? 'savepoint' : 'transaction'}`);
      await open.call(sql, (tx) => runSteps(tx, step.steps, state));
      continue;
    }
    const params = step.params.map((param) => resolveParam(param, state));
    const pending = sql.unsafe(step.query, params as postgres.ParameterOrJSON<never>[], step.options);
    const rows: unknown = await (step.arrayMode ? pending.values() : pending);
    if (state.wanted.has(step.index)) {
      state.results[step.index] = (rows as unknown[]).map((row) =>
        Array.isArray(row) ? (row as unknown[]) : Object.values(row as Record<string, unknown>),
      );
    }
  }
}

/** A template parameter's value for the current request. */
function resolveParam(param: TemplateParam, state: Omit<RequestState, 'wanted'>): unknown {
  if ('constant' in param) return param.constant;
  const { segments } = param;
  if (segments.length === 1) return segmentValue(segments[0]!, state);
  let text = '';
  for (const segment of segments) text += segmentValue(segment, state);
  return text;
}

function segmentValue(segment: Segment, state: Omit<RequestState, 'wanted'>): string {
  if ('text' in segment) return segment.text;
  const { slot } = segment;
  switch (slot.kind) {
    case 'input': {
      const value = state.readInput(slot.name);
      if (value === undefined) throw new Error(`The request has no ${slot.name}`);
      return value;
    }
    case 'result': {
      const value = state.results[slot.step]?.[slot.row]?.[slot.column];
      if (value === undefined)
        throw new Error(`Statement ${slot.step} answered no value at row ${slot.row}, column ${slot.column}`);
      return String(value);
    }
    case 'uuid':
      return (state.uuids[slot.index] ??= randomUUID());
    case 'token':
      return (state.tokens[slot.index] ??= slot.prefix + randomWord(slot.length - slot.prefix.length));
    case 'now':
      state.now ??= Date.now();
      return new Date(state.now + (slot.offsetMs ?? 0)).toISOString();
  }
}

const WORD_CHARACTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomWord(length: number): string {
  let word = '';
  for (const byte of randomBytes(length)) word += WORD_CHARACTERS[byte % WORD_CHARACTERS.length];
  return word;
}
