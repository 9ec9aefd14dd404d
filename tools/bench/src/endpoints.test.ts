import { hashApiKeySecret } from '@platform/api-keys';
import { describe, expect, it } from 'vitest';
import { routeParams } from './baselines/spec.js';
import { benchEndpoints, ENDPOINT_IDS, requestInputs, supplyOf } from './endpoints.js';
import type { BenchFixture } from './setup/seed.js';

const customers = ['a', 'b', 'c'].map((name) => ({
  id: `org-${name}`,
  ownerUserId: `owner-${name}`,
  apiKey: `sk_live_${name}`,
  apiKeyId: `key-${name}`,
}));
const fixture: BenchFixture = {
  organizationId: 'org-main',
  userId: 'user-main',
  apiKeys: {
    sessions: 'sk_live_sessions',
    sessionReplay: 'sk_live_replay',
    folders: 'sk_live_folders',
    reads: 'sk_live_reads',
    statement: 'sk_live_statement',
  },
  customers,
  platform: { id: 'org-platform', reviewerUserId: 'reviewer' },
  sessionsAwaitingReview: ['11111111-0000-4000-8000-000000000001', '11111111-0000-4000-8000-000000000002'],
  apiKeyIds: [],
  userIds: [],
};
const endpointOf = (id: string) => {
  const endpoint = benchEndpoints(fixture, {
    member: 'member-token',
    reviewer: 'reviewer-token',
    memberDashboard: 'dashboard_session=sealed',
  }).find((candidate) => candidate.id === id);
  if (endpoint === undefined) throw new Error(`No endpoint ${id}`);
  return endpoint;
};

describe('the Verifications page', () => {
  it("is read by the member's signed-in browser: its cookie, and no bearer token", () => {
    const request = endpointOf('dashboard-verifications').request();
    expect(request).toEqual({
      method: 'GET',
      path: '/dashboard/verifications',
      headers: { cookie: 'dashboard_session=sealed' },
    });
  });
});

describe('the spread-out session create', () => {
  it("takes the customers in turn, each request with its own key, after one request per customer's key", () => {
    const endpoint = endpointOf(ENDPOINT_IDS.sessionCreateManyOrganizations);
    expect(endpoint.label).toBe('POST /v1/verify/sessions (3 organizations)');
    expect(endpoint.prime?.().map((request) => request.headers['x-service-api-key'])).toEqual([
      'sk_live_a',
      'sk_live_b',
      'sk_live_c',
    ]);
    const keys = Array.from({ length: 4 }, () => endpoint.request().headers['x-service-api-key']);
    expect(keys).toEqual(['sk_live_a', 'sk_live_b', 'sk_live_c', 'sk_live_a']);
    // Primed twice (the service, then the recording copies): new creates each time, never replays of the first.
    const idempotencyKeys = [...(endpoint.prime?.() ?? []), ...(endpoint.prime?.() ?? [])].map(
      (request) => request.headers['x-idempotency-key'],
    );
    expect(new Set(idempotencyKeys).size).toBe(6);
  });

  it('gives the SQL the hash backend-api finds the key by, so a replay finds the key of each request', () => {
    const endpoint = endpointOf(ENDPOINT_IDS.sessionCreateManyOrganizations);
    const inputs = requestInputs(endpoint, endpoint.request());
    expect(inputs['derived:api-key-hash']).toBe(hashApiKeySecret('sk_live_a'));
    expect(inputs['header:x-idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(inputs['body:type']).toBe('kyc');
  });
});

describe('the wallet balance', () => {
  it('is primed with the request it repeats, so the wallet exists before the SQL is recorded', () => {
    const endpoint = endpointOf('wallet');
    expect(endpoint.prime?.()).toEqual([endpoint.request()]);
    expect(endpoint.request()).toEqual({
      method: 'GET',
      path: '/v1/wallet',
      headers: { 'x-service-api-key': 'sk_live_reads' },
    });
  });
});

describe('the decision row', () => {
  it('decides each seeded session once, in order, and gives its id to the SQL as a path parameter', () => {
    const endpoint = endpointOf(ENDPOINT_IDS.reviewDecision);
    const first = endpoint.request();
    expect(first).toMatchObject({
      method: 'POST',
      path: `/v1/reviews/${fixture.sessionsAwaitingReview[0]}/decision`,
      headers: { authorization: 'Bearer reviewer-token' },
      body: '{"decision":"verified"}',
    });
    expect(requestInputs(endpoint, first)['param:sessionId']).toBe(fixture.sessionsAwaitingReview[0]);
    expect(endpoint.request().path).toBe(`/v1/reviews/${fixture.sessionsAwaitingReview[1]}/decision`);
    expect(endpoint.shortage?.()).toBeUndefined();
  });

  it('gives the node:http baseline requests that use up no session', () => {
    const endpoint = endpointOf(ENDPOINT_IDS.reviewDecision);
    const shape = endpoint.requestShape?.();
    expect(shape?.path).toMatch(/^\/v1\/reviews\/[0-9a-f-]{36}\/decision$/);
    expect(fixture.sessionsAwaitingReview.map((id) => shape?.path.includes(id))).toEqual([false, false]);
    expect(endpoint.request().path).toContain(fixture.sessionsAwaitingReview[0]);
  });
});

describe('supplyOf', () => {
  it('hands out each item once, then again while saying the run needed more', () => {
    const supply = supplyOf(['x', 'y'], 'sessions', 'BENCH_DECISION_SESSIONS');
    expect([supply.next(), supply.next()]).toEqual(['x', 'y']);
    expect(supply.shortage()).toBeUndefined();
    expect(supply.next()).toBe('x');
    expect(supply.shortage()).toBe(
      '3 requests needed more than the 2 sessions seeded (the rest failed); set BENCH_DECISION_SESSIONS higher',
    );
  });

  it('refuses to hand out from nothing', () => {
    expect(() => supplyOf([], 'sessions', 'X').next()).toThrow(/No sessions were seeded/);
  });
});

describe('routeParams', () => {
  it('reads the parameters of a pattern, ignoring the query string, and matches nothing else', () => {
    expect(routeParams('/x/v1/reviews/:sessionId/decision', '/x/v1/reviews/abc/decision?y=1')).toEqual({
      sessionId: 'abc',
    });
    expect(routeParams('/v1/reviews/:sessionId/decision', '/v1/reviews//decision')).toBeUndefined();
    expect(routeParams('/v1/reviews/:sessionId/decision', '/v1/reviews/abc/claim')).toBeUndefined();
    expect(routeParams('/v1/accounts/me', '/v1/accounts/me')).toEqual({});
  });
});
