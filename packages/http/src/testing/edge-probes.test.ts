import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { edgeProbeCoverageProblems, probeCoverageKey } from './check-answers.js';
import { edgeInputProbes } from './edge-probes.js';
import type { FuzzRequest } from './fuzz-request.js';
import { notOnOneLineCharacters, unstorableDates } from './input-edges.js';
import type { RouteUnderTest } from './routes.js';

const route: RouteUnderTest = {
  method: 'POST',
  url: '/v1/things',
  config: { idempotency: 'transaction' },
  schema: {
    querystring: { type: 'object', properties: { from: { type: 'string', format: 'date-time' } } },
    body: {
      type: 'object',
      properties: {
        name: { type: 'string', format: 'single-line-name' },
        note: { type: 'string' },
        due: { type: 'string', format: 'date' },
      },
    },
  },
};
const clean = {
  path: fc.constant('/v1/things'),
  query: fc.constant(''),
  headers: fc.constant({ 'content-type': 'application/json' }),
  body: fc.constant({ name: 'Acme', note: 'n', due: '2026-03-01' }),
};
const sample = (target: RouteUnderTest): FuzzRequest[] =>
  fc.sample(
    edgeInputProbes(target, () => undefined, clean),
    { numRuns: 2_000, seed: 7 },
  );

describe('edgeInputProbes', () => {
  const requests = sample(route);
  const probed = (probe: FuzzRequest['probe']) => requests.filter((request) => request.probe === probe);

  it('sends JSON bodies whose bytes are not UTF-8, marked to be refused', () => {
    const bodies = probed('not-utf8').map((request) => request.payload);
    expect(bodies.length).toBeGreaterThan(50);
    expect(bodies.every((body) => Buffer.isBuffer(body) && !isUtf8(body))).toBe(true);
  });

  it('puts bidirectional controls and line separators in single-line names (marked) and other text (not)', () => {
    const names = probed('not-one-line').map((request) => JSON.parse(String(request.payload)).name as string);
    expect(names.length).toBeGreaterThan(20);
    expect(names.every((name) => notOnOneLineCharacters.some((character) => name.includes(character)))).toBe(true);
    const notes = requests.filter(
      (request) =>
        request.probe === undefined && /[\u2028\u2029\u202a-\u202e\u2066-\u2069]/.test(String(request.payload)),
    );
    expect(notes.length).toBeGreaterThan(0);
  });

  it('puts extreme dates in date fields and query parameters, marking the unstorable ones', () => {
    const dated = probed('unstorable-date');
    expect(dated.some((request) => request.url.includes('from='))).toBe(true);
    expect(dated.some((request) => String(request.payload).includes('"due"'))).toBe(true);
    const sent = dated.map((request) =>
      request.url.includes('from=')
        ? new URLSearchParams(request.url.split('?')[1]).get('from')
        : (JSON.parse(String(request.payload)).due as string),
    );
    expect(sent.every((date) => (unstorableDates as readonly (string | null)[]).includes(date))).toBe(true);
  });

  it('sends the key under both names, two different keys marked to be refused', () => {
    const two = probed('two-idempotency-keys');
    expect(two.length).toBeGreaterThan(10);
    expect(two.every((r) => r.headers['x-idempotency-key'] !== r.headers['idempotency-key'])).toBe(true);
    expect(
      requests.some(
        (r) =>
          r.probe === undefined &&
          r.headers['x-idempotency-key'] !== undefined &&
          r.headers['x-idempotency-key'] === r.headers['idempotency-key'],
      ),
    ).toBe(true);
  });

  it("marks nothing on a provider's callback, which keeps what it is sent", () => {
    const callback = { ...route, config: { sentByProvider: true, idempotency: 'none' } };
    expect(sample(callback).every((request) => request.probe === undefined)).toBe(true);
  });
});

describe('edgeProbeCoverageProblems', () => {
  it('asks that each kind of probe sent was refused with 400 at least once', () => {
    const coverage = new Map([
      [probeCoverageKey('POST /a', 'not-utf8'), new Map([[401, 3]])],
      [probeCoverageKey('POST /b', 'not-utf8'), new Map([[415, 1]])],
      [probeCoverageKey('POST /a', 'unstorable-date'), new Map([[400, 2]])],
    ]);
    expect(edgeProbeCoverageProblems(coverage, ['unstorable-date', 'two-idempotency-keys'])).toEqual([
      'no request with a JSON body that is not UTF-8 was refused with 400 (401 x3, 415 x1)',
      'sent no request with two different idempotency keys',
    ]);
  });
});
