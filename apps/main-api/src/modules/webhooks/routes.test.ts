import { organizations, users, webhookEndpoints } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { SECRET_REVEALED, SECRET_ROTATED, WEBHOOK_ENDPOINT_UPDATED } from './routes.js';
import { SECRET_ALREADY_REVEALED } from './service.js';

const ALICE = 'user_webhooks_alice';
const BOB = 'user_webhooks_bob';
const NOW = new Date('2024-06-15T12:00:00.000Z');
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;

let t: TestApp;
let orgA: string;
let orgB: string;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => NOW } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.db.delete(organizations);
  await t.db.delete(users);
  await insertUser(t.db, { id: ALICE });
  await insertUser(t.db, { id: BOB });
  // Alice is a plain member: any member may manage the callback settings.
  orgA = await insertOrganization(t.db, { name: 'A', members: [{ userId: ALICE, role: 'developer' }] });
  orgB = await insertOrganization(t.db, { name: 'B', members: [{ userId: BOB, role: 'owner' }] });
});

interface CallOptions {
  payload?: object;
  userId?: string;
  organizationId?: string;
  app?: TestApp;
}

async function call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, options: CallOptions = {}) {
  const app = options.app ?? t;
  return app.app.inject({
    method,
    url,
    headers: { ...(await authHeader(options.userId ?? ALICE)), 'x-organization-id': options.organizationId ?? orgA },
    ...(options.payload === undefined ? {} : { payload: options.payload }),
  });
}

const reveal = (environment: string, options: CallOptions = {}) =>
  call('POST', `/v1/webhooks/endpoints/${environment}/secret/reveal`, options);
const rotate = (environment: string, options: CallOptions = {}) =>
  call('POST', `/v1/webhooks/endpoints/${environment}/secret/rotate`, options);

async function storedEndpoint(organizationId: string, environment: 'live' | 'test') {
  const [row] = await t.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.organizationId, organizationId), eq(webhookEndpoints.environment, environment)));
  return row;
}

const untouched = (environment: 'live' | 'test') => ({
  environment,
  defaultUrl: null,
  secretRevealed: false,
  secretRevealedAt: null,
  previousSecretExpiresAt: null,
  disabledTargets: [],
});

describe('GET /v1/webhooks/endpoints', () => {
  it('shows both environments, never a secret', async () => {
    const response = await call('GET', '/v1/webhooks/endpoints');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, data: { endpoints: [untouched('live'), untouched('test')] } });

    await reveal('test');
    const after = await call('GET', '/v1/webhooks/endpoints');
    expect(after.json().data.endpoints[1]).toEqual({
      ...untouched('test'),
      secretRevealed: true,
      secretRevealedAt: NOW.toISOString(),
    });
    expect(after.body).not.toContain('whsec_');
  });
});

describe('POST /v1/webhooks/endpoints/:environment/secret/reveal', () => {
  it('answers the secret the first time, and 409 afterwards', async () => {
    const first = await reveal('live');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toEqual({
      success: true,
      message: SECRET_REVEALED,
      data: { environment: 'live', secret: expect.stringMatching(SECRET), previousSecretExpiresAt: null },
    });
    expect((await storedEndpoint(orgA, 'live'))?.secret).toBe(body.data.secret);

    const second = await reveal('live');
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ success: false, code: 'conflict', error: SECRET_ALREADY_REVEALED });
    expect(second.body).not.toContain('whsec_');

    // Test has a secret of its own.
    const test = await reveal('test');
    expect(test.statusCode).toBe(200);
    expect(test.json().data.secret).not.toBe(body.data.secret);
  });

  it('gives the secret to exactly one of several simultaneous calls', async () => {
    const answers = await Promise.all(Array.from({ length: 5 }, () => reveal('test')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
  });
});

describe('POST /v1/webhooks/endpoints/:environment/secret/rotate', () => {
  it('answers a new secret once and keeps the old one signing for 24 hours', async () => {
    const old = (await reveal('live')).json().data.secret as string;
    const response = await rotate('live');
    expect(response.statusCode).toBe(200);
    const { data, message } = response.json();
    expect(message).toBe(SECRET_ROTATED);
    expect(data).toEqual({
      environment: 'live',
      secret: expect.stringMatching(SECRET),
      previousSecretExpiresAt: new Date(NOW.getTime() + 24 * 3_600_000).toISOString(),
    });
    expect(data.secret).not.toBe(old);
    expect(await storedEndpoint(orgA, 'live')).toMatchObject({ secret: data.secret, previousSecret: old });

    const settings = (await call('GET', '/v1/webhooks/endpoints')).json().data.endpoints[0];
    expect(settings).toMatchObject({ secretRevealed: true, previousSecretExpiresAt: data.previousSecretExpiresAt });
    // The new secret was shown by the rotation: no second look.
    expect((await reveal('live')).statusCode).toBe(409);
  });

  it('works before the secret was ever revealed', async () => {
    const response = await rotate('test');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.secret).toMatch(SECRET);
  });
});

describe('PUT and PATCH /v1/webhooks/endpoints/:environment', () => {
  it('sets and clears the default URL', async () => {
    const put = await call('PUT', '/v1/webhooks/endpoints/live', {
      payload: { defaultUrl: 'https://hooks.example.com/platform' },
    });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({
      success: true,
      message: WEBHOOK_ENDPOINT_UPDATED,
      data: { ...untouched('live'), defaultUrl: 'https://hooks.example.com/platform' },
    });
    expect((await storedEndpoint(orgA, 'live'))?.defaultUrl).toBe('https://hooks.example.com/platform');
    expect(await storedEndpoint(orgA, 'test')).toBeUndefined();

    const patch = await call('PATCH', '/v1/webhooks/endpoints/live', { payload: { defaultUrl: null } });
    expect(patch.statusCode).toBe(200);
    expect(patch.json().data.defaultUrl).toBeNull();
  });

  it.each([
    ['http://hooks.example.com/platform', 'defaultUrl must use https'],
    ['https://localhost/hook', 'defaultUrl must not point to localhost'],
    ['https://10.0.0.8/hook', 'defaultUrl must not point to 10.0.0.8 (private): callbacks go to public addresses only'],
    ['hooks.example.com', 'defaultUrl must be an absolute URL'],
  ])('refuses %s', async (defaultUrl, error) => {
    const response = await call('PUT', '/v1/webhooks/endpoints/test', { payload: { defaultUrl } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error', error, details: [{ path: '/defaultUrl' }] });
    expect(await storedEndpoint(orgA, 'test')).toBeUndefined();
  });

  it('refuses unknown fields and a missing defaultUrl', async () => {
    const unknownField = await call('PUT', '/v1/webhooks/endpoints/test', {
      payload: { defaultUrl: null, secret: 'x' },
    });
    expect(unknownField.statusCode).toBe(400);
    expect((await call('PATCH', '/v1/webhooks/endpoints/test', { payload: {} })).statusCode).toBe(400);
  });

  it('accepts local http URLs when private targets are allowed', async () => {
    const local = await createTestApp({ deps: { now: () => NOW }, env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
    try {
      await insertUser(local.db, { id: ALICE });
      const organizationId = await insertOrganization(local.db, { members: [{ userId: ALICE }] });
      const response = await call('PUT', '/v1/webhooks/endpoints/test', {
        app: local,
        organizationId,
        payload: { defaultUrl: 'http://localhost:4000/hooks' },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.defaultUrl).toBe('http://localhost:4000/hooks');
    } finally {
      await local.close();
    }
  });
});

describe('access', () => {
  it("refuses another organization's member with 403", async () => {
    for (const response of [
      await reveal('live', { userId: BOB }),
      await rotate('live', { userId: BOB }),
      await call('GET', '/v1/webhooks/endpoints', { userId: BOB }),
      await call('PUT', '/v1/webhooks/endpoints/live', { userId: BOB, payload: { defaultUrl: null } }),
    ]) {
      expect(response.statusCode).toBe(403);
    }
    expect(await storedEndpoint(orgA, 'live')).toBeUndefined();
    // Bob's own organization works for Bob.
    expect((await reveal('live', { userId: BOB, organizationId: orgB })).statusCode).toBe(200);
  });

  it('refuses a request without a token with 401', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks/endpoints/live/secret/reveal',
      headers: { 'x-organization-id': orgA },
    });
    expect(response.statusCode).toBe(401);
    expect(await storedEndpoint(orgA, 'live')).toBeUndefined();
  });

  it('refuses an unknown environment with 400', async () => {
    for (const response of [
      await reveal('staging'),
      await rotate('production'),
      await call('PUT', '/v1/webhooks/endpoints/LIVE', { payload: { defaultUrl: null } }),
    ]) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'validation_error',
        details: [{ path: expect.stringContaining('environment') }],
      });
    }
  });
});
