import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FuzzTarget } from './check-answers.js';
import { fuzzedCoverageProblems } from './fuzz-coverage.js';
import type { FuzzRequest } from './fuzz-request.js';
import type { RouteUnderTest } from './routes.js';

const ENVELOPE = JSON.stringify({ success: false, error: 'Bad request', code: 'validation_error', requestId: 'r1' });
const things = { method: 'GET', url: '/things', schema: {}, config: {} } as RouteUnderTest;
const other = { method: 'GET', url: '/things/other', schema: {}, config: {} } as RouteUnderTest;
type Kind = 'clean' | 'broken' | 'probe';

function requestOf(route: RouteUnderTest, kind: Kind): FuzzRequest {
  const request: FuzzRequest = {
    route: `${route.method} ${route.url}`,
    method: route.method,
    url: { clean: route.url, broken: `${route.url}?broken`, probe: `${route.url}?note=%00` }[kind],
    headers: {},
  };
  return kind === 'probe' ? { ...request, probe: 'unstorable-text' } : request;
}

/** A request to an idempotent route with two different keys: refused (a 400), or `elsewhere`, a 404 first. */
function twoKeysTo(route: RouteUnderTest, where: 'here' | 'elsewhere'): FuzzRequest {
  const url = where === 'here' ? `${route.url}?keys=two` : `/elsewhere${route.url}`;
  return {
    route: `${route.method} ${route.url}`,
    method: route.method,
    url,
    headers: {},
    probe: 'two-idempotency-keys',
  };
}

/** A service that refuses broken requests and unstorable text and takes the rest; it counts requests per path. */
function service(): FuzzTarget & { sent: Map<string, number> } {
  const sent = new Map<string, number>();
  return {
    sent,
    inject: async (options) => {
      const [path = '', query] = String(options.url).split('?');
      sent.set(path, (sent.get(path) ?? 0) + 1);
      const refused = query !== undefined || path.startsWith('/elsewhere');
      return {
        statusCode: path.startsWith('/elsewhere') ? 404 : refused ? 400 : 200,
        body: refused ? ENVELOPE : '{}',
        headers: { 'content-type': 'application/json' },
      };
    },
    snapshot: async () => ({ things: 'same' }),
  };
}

const settings = { seed: 1, numRuns: 30 };
// The shared run reaches /things/other only.
const requests = fc.constantFrom(requestOf(other, 'clean'), requestOf(other, 'probe'));

describe('fuzzedCoverageProblems', () => {
  it('gives the routes the run left uncovered requests of their own, and finds nothing left', async () => {
    const target = service();
    const problems = await fuzzedCoverageProblems(
      target,
      {
        routes: [things, other],
        requests,
        requestsOf: (route) => fc.constantFrom<Kind>('clean', 'broken', 'probe').map((kind) => requestOf(route, kind)),
      },
      settings,
    );
    expect(problems).toEqual([]);
    // The covered route got the run's requests only.
    expect(target.sent.get('/things/other')).toBe(settings.numRuns);
    expect(target.sent.get('/things')).toBeGreaterThan(0);
  });

  it("names what a route's own requests cannot cover, neither a success nor a refused unstorable text", async () => {
    const problems = await fuzzedCoverageProblems(
      service(),
      { routes: [things, other], requests, requestsOf: (route) => fc.constant(requestOf(route, 'broken')) },
      settings,
    );
    expect(problems).toEqual([
      'GET /things never answered 2xx (400 x200)',
      'GET /things never refused unstorable text with 400 (never probed)',
    ]);
  });

  it('takes a route listed as unable to succeed when it answers what it answers instead', async () => {
    const problems = await fuzzedCoverageProblems(
      service(),
      {
        routes: [things, other],
        requests,
        requestsOf: (route) => fc.constantFrom<Kind>('broken', 'probe').map((kind) => requestOf(route, kind)),
        listed: { 'GET /things': { reason: 'only ever refuses here', instead: [400] } },
      },
      settings,
    );
    expect(problems).toEqual([]);
  });

  it("sends each route's own requests by default, each route equally likely", async () => {
    const target = service();
    const problems = await fuzzedCoverageProblems(
      target,
      { routes: [things, other], requestsOf: (route) => fc.constant(requestOf(route, 'broken')) },
      settings,
    );
    // Neither route ever succeeds, so both were topped up: the run's own requests went to both.
    expect(problems).toHaveLength(4);
    expect(target.sent.get('/things')).toBeGreaterThan(200);
    expect(target.sent.get('/things/other')).toBeGreaterThan(200);
    expect((target.sent.get('/things') ?? 0) + (target.sent.get('/things/other') ?? 0)).toBe(400 + settings.numRuns);
  });

  it('gives the idempotent routes requests of their own when no request with two keys was refused', async () => {
    const keyed = {
      method: 'POST',
      url: '/keyed',
      schema: {},
      config: { idempotency: 'transaction' },
    } as RouteUnderTest;
    const target = service();
    const problems = await fuzzedCoverageProblems(
      target,
      {
        routes: [other, keyed],
        // The run's only two-key request met another organization's 404 before its keys were looked at.
        requests: fc.constantFrom(
          requestOf(other, 'clean'),
          requestOf(other, 'probe'),
          requestOf(keyed, 'clean'),
          requestOf(keyed, 'probe'),
          twoKeysTo(keyed, 'elsewhere'),
        ),
        requestsOf: (route) =>
          fc.constantFrom(requestOf(route, 'clean'), requestOf(route, 'probe'), twoKeysTo(route, 'here')),
        probes: ['two-idempotency-keys'],
      },
      settings,
    );
    expect(problems).toEqual([]);
    expect(target.sent.get('/keyed')).toBeGreaterThan(0);
    // The route that was not idempotent and never probed with two keys got no more requests.
    expect(target.sent.get('/things/other')).toBeLessThanOrEqual(settings.numRuns);
  });
});
