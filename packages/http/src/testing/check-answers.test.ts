import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkFuzzedAnswers,
  coverageToppedUp,
  type FuzzCoverage,
  type FuzzTarget,
  probeCoverageKey,
  successCoverageProblems,
} from './check-answers.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { RouteUnderTest } from './routes.js';

const ENVELOPE = JSON.stringify({ success: false, error: 'Bad request', code: 'validation_error', requestId: 'r1' });
const requests: fc.Arbitrary<FuzzRequest> = fc.constantFrom<FuzzRequest>({
  route: 'POST /things',
  method: 'POST',
  url: '/things',
  headers: {},
  payload: '{}',
});
const settings = { seed: 1, numRuns: 5 };

function target(
  answer: { statusCode: number; body: string; contentType?: string },
  options: Partial<FuzzTarget> = {},
): FuzzTarget {
  return {
    inject: async () => ({
      statusCode: answer.statusCode,
      body: answer.body,
      headers: { 'content-type': answer.contentType ?? 'application/json' },
    }),
    snapshot: async () => ({ things: 'same' }),
    ...options,
  };
}

describe('checkFuzzedAnswers', () => {
  it('passes a service that refuses with the envelope and changes nothing', async () => {
    await expect(
      checkFuzzedAnswers(target({ statusCode: 400, body: ENVELOPE }), requests, settings),
    ).resolves.toBeDefined();
  });

  it('fails on a 5xx, naming the seed', async () => {
    await expect(checkFuzzedAnswers(target({ statusCode: 500, body: ENVELOPE }), requests, settings)).rejects.toThrow(
      /FUZZ_SEED=1/,
    );
  });

  it.each(['unstorable-text', 'not-utf8', 'not-one-line', 'unstorable-date', 'two-idempotency-keys'] as const)(
    'fails when a request that must be refused (%s) succeeds, and counts it apart',
    async (probe) => {
      const probing = fc.constant<FuzzRequest>({
        route: 'POST /things',
        method: 'POST',
        url: '/things',
        headers: {},
        payload: Buffer.from([0x7b, 0xff, 0x7d]),
        probe,
      });
      await expect(checkFuzzedAnswers(target({ statusCode: 201, body: '{}' }), probing, settings)).rejects.toThrow(
        /must be refused/,
      );
      const coverage = await checkFuzzedAnswers(target({ statusCode: 400, body: ENVELOPE }), probing, settings);
      expect([...coverage.keys()]).toEqual([probeCoverageKey('POST /things', probe)]);
    },
  );

  it('fails on an error that is not the envelope, unless it is a browser page', async () => {
    const html = { statusCode: 404, body: '<h1>Not found</h1>', contentType: 'text/html' };
    await expect(checkFuzzedAnswers(target(html), requests, settings)).rejects.toThrow(/not JSON/);
    await expect(
      checkFuzzedAnswers(target(html, { isBrowserPage: () => true }), requests, settings),
    ).resolves.toBeDefined();
  });

  it('fails when a refused request, or one that must change nothing, changed the stored state', async () => {
    let version = 0;
    const changing = { snapshot: async () => ({ things: String((version += 1)) }) };
    await expect(
      checkFuzzedAnswers(target({ statusCode: 400, body: ENVELOPE }, changing), requests, settings),
    ).rejects.toThrow(/Changed things/);
    await expect(
      checkFuzzedAnswers(target({ statusCode: 200, body: '{}' }, changing), requests, settings),
    ).resolves.toBeDefined();
    await expect(
      checkFuzzedAnswers(
        target({ statusCode: 200, body: '{}' }, { ...changing, mustChangeNothing: () => true }),
        requests,
        settings,
      ),
    ).rejects.toThrow(/Changed things/);
  });

  it('returns how often each route answered each status', async () => {
    const coverage = await checkFuzzedAnswers(target({ statusCode: 400, body: ENVELOPE }), requests, settings);
    expect([...coverage].map(([route, statuses]) => [route, [...statuses]])).toEqual([['POST /things', [[400, 5]]]]);
  });
});

describe('successCoverageProblems', () => {
  const coverage = new Map([
    [
      'GET /things',
      new Map([
        [200, 3],
        [404, 1],
      ]),
    ],
    ['POST /things', new Map([[400, 7]])],
    ['GET /health', new Map([[204, 1]])],
  ]);

  it('passes when every route answered 2xx once, or is listed with its reason', () => {
    expect(successCoverageProblems(['GET /things', 'GET /health'], coverage)).toEqual([]);
    expect(
      successCoverageProblems(['GET /things', 'POST /things'], coverage, {
        'POST /things': { reason: 'needs a file upload' },
      }),
    ).toEqual([]);
  });

  it('names a route that never succeeded, with what it answered, and one never requested', () => {
    expect(successCoverageProblems(['POST /things', 'DELETE /things/:id'], coverage)).toEqual([
      'POST /things never answered 2xx (400 x7)',
      'DELETE /things/:id never answered 2xx (never requested)',
    ]);
  });

  it('refuses a listed route that succeeded after all, or that is not a route', () => {
    expect(
      successCoverageProblems(['GET /things'], coverage, {
        'GET /things': { reason: 'x' },
        'PUT /gone': { reason: 'y' },
      }),
    ).toEqual([
      'GET /things answered 2xx but is listed as unable to: x',
      'PUT /gone is listed as unable to answer 2xx but is not a route under test',
    ]);
  });

  it('takes the statuses a listed route answers instead of 2xx, and requires one of them', () => {
    const once = { reason: 'shows it once', instead: [409] };
    expect(
      successCoverageProblems(['POST /things'], coverage, { 'POST /things': { ...once, instead: [400] } }),
    ).toEqual([]);
    expect(successCoverageProblems(['POST /things'], coverage, { 'POST /things': once })).toEqual([
      'POST /things answered neither 2xx nor 409 (400 x7)',
    ]);
    // It may also succeed: it was reached either way.
    expect(successCoverageProblems(['GET /things'], coverage, { 'GET /things': once })).toEqual([]);
  });
});

describe('coverageToppedUp', () => {
  const routeOf = (method: string, url: string) => ({ method, url, schema: {}, config: {} }) as RouteUnderTest;
  const requestOf = (route: RouteUnderTest, clean: boolean): FuzzRequest => ({
    route: `${route.method} ${route.url}`,
    method: route.method,
    url: clean ? route.url : `${route.url}?broken`,
    headers: {},
  });
  const things = routeOf('GET', '/things');
  const other = routeOf('GET', '/things/other');
  // Only a clean request succeeds, and the shared run sent none to /things.
  const service: FuzzTarget = {
    inject: async (options) => ({
      statusCode: String(options.url).includes('?broken') ? 400 : 200,
      body: String(options.url).includes('?broken') ? ENVELOPE : '{}',
      headers: { 'content-type': 'application/json' },
    }),
    snapshot: async () => ({ things: 'same' }),
  };
  const problems = (coverage: FuzzCoverage) => successCoverageProblems(['GET /things', 'GET /things/other'], coverage);

  it("gives a route the shared run left uncovered requests of its own, adding to the run's coverage", async () => {
    const shared = await checkFuzzedAnswers(
      service,
      fc.constantFrom(requestOf(things, false), requestOf(other, true)),
      settings,
    );
    expect(problems(shared)).toEqual([
      `GET /things never answered 2xx (400 x${String(shared.get('GET /things')?.get(400))})`,
    ]);
    const toppedUp = await coverageToppedUp(service, shared, {
      routes: [things, other],
      problems,
      requestsOf: (route) => fc.constantFrom(requestOf(route, false), requestOf(route, true)),
      settings: { seed: 1, numRuns: 20 },
    });
    expect(problems(toppedUp)).toEqual([]);
    // Only the uncovered route got more requests; the shared counts are kept.
    expect(toppedUp.get('GET /things/other')).toEqual(shared.get('GET /things/other'));
    expect(toppedUp.get('GET /things')?.get(400)).toBeGreaterThan(shared.get('GET /things')?.get(400) ?? 0);
  });

  it('leaves a route that its own requests cannot cover uncovered', async () => {
    const shared = await checkFuzzedAnswers(service, fc.constant(requestOf(other, true)), settings);
    const toppedUp = await coverageToppedUp(service, shared, {
      routes: [things, other],
      problems,
      requestsOf: (route) => fc.constant(requestOf(route, false)),
      settings: { seed: 1, numRuns: 20 },
    });
    expect(problems(toppedUp)).toEqual(['GET /things never answered 2xx (400 x20)']);
  });
});
