import { findActiveApiKey, generateApiKey, hashApiKeySecret } from '@platform/api-keys';
import { apiKeys, organizations, users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { API_KEY_CREATED } from './routes.js';

const ALICE = 'user_api_keys_alice';
const BOB = 'user_api_keys_bob';
const NOW = new Date('2024-06-15T12:00:00.000Z');
const BASE = Date.parse('2024-06-01T00:00:00.000Z');
const SECRET = { live: /^sk_live_[A-Za-z0-9_-]{43}$/, test: /^sk_test_[A-Za-z0-9_-]{43}$/ };
const UNKNOWN_ID = '3f9a1c1e-7a4b-4e8e-9d55-0d0f6f1d2c3b';

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
  // Alice is a plain member: any member may manage the keys.
  orgA = await insertOrganization(t.db, { name: 'A', members: [{ userId: ALICE, role: 'developer' }] });
  orgB = await insertOrganization(t.db, { name: 'B', members: [{ userId: BOB, role: 'owner' }] });
});

async function headers(userId: string, organizationId: string) {
  return { ...(await authHeader(userId)), 'x-organization-id': organizationId };
}

async function create(payload: unknown, userId = ALICE, organizationId = orgA) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/api-keys',
    headers: await headers(userId, organizationId),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function list(query = '', userId = ALICE, organizationId = orgA) {
  return t.app.inject({ method: 'GET', url: `/v1/api-keys${query}`, headers: await headers(userId, organizationId) });
}

async function revoke(id: string, userId = ALICE, organizationId = orgA) {
  return t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${id}`, headers: await headers(userId, organizationId) });
}

type SeedKey = { organizationId: string; minute: number; environment?: 'live' | 'test'; revokedMinute?: number };

/** Stores keys with chosen creation times; returns them with their secrets. */
async function seedKeys(keys: SeedKey[]) {
  return Promise.all(
    keys.map(async (key) => {
      const environment = key.environment ?? 'live';
      const generated = generateApiKey(environment);
      const [row] = await t.db
        .insert(apiKeys)
        .values({
          organizationId: key.organizationId,
          environment,
          name: `Key ${key.minute}`,
          secretHash: generated.secretHash,
          lastFour: generated.lastFour,
          createdAt: new Date(BASE + key.minute * 60_000),
          revokedAt: key.revokedMinute === undefined ? null : new Date(BASE + key.revokedMinute * 60_000),
        })
        .returning();
      return { ...row!, secret: generated.secret };
    }),
  );
}

async function keyRow(id: string) {
  const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

describe('POST /v1/api-keys', () => {
  it('creates a live key and shows its secret, which authenticates against the backend service', async () => {
    const response = await create({ environment: 'live' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      message: API_KEY_CREATED,
      data: {
        id: expect.any(String),
        name: 'Default',
        environment: 'live',
        secret: expect.stringMatching(SECRET.live),
        lastFour: body.data.secret.slice(-4),
        prefix: 'sk_live_',
        rateLimitPerMinute: null,
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    });

    expect(await findActiveApiKey(t.db, body.data.secret)).toEqual({
      id: body.data.id,
      organizationId: orgA,
      environment: 'live',
      rateLimitPerMinute: null,
    });
    const row = await keyRow(body.data.id);
    expect(row).toMatchObject({ createdByUserId: ALICE, secretHash: hashApiKeySecret(body.data.secret) });
    expect(Object.values(row!)).not.toContain(body.data.secret);
  });

  it('creates a test key with a trimmed name and its own rate limit', async () => {
    const response = await create({ environment: 'test', name: '  Staging server  ', rateLimitPerMinute: 120 });
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data).toMatchObject({
      name: 'Staging server',
      environment: 'test',
      prefix: 'sk_test_',
      rateLimitPerMinute: 120,
    });
    expect(data.secret).toMatch(SECRET.test);
    expect(await findActiveApiKey(t.db, data.secret)).toMatchObject({ environment: 'test', rateLimitPerMinute: 120 });
  });

  it("accepts the bounds: a 100-character name and 1 to the organization's maximum (600 by default) per minute", async () => {
    const long = await create({ environment: 'live', name: 'n'.repeat(100), rateLimitPerMinute: 600 });
    expect(long.statusCode).toBe(201);
    expect(long.json().data).toMatchObject({ rateLimitPerMinute: 600 });
    expect(long.json().data.name).toHaveLength(100);
    expect((await create({ environment: 'test', rateLimitPerMinute: 1 })).json().data.rateLimitPerMinute).toBe(1);
  });

  it("answers 400 naming the maximum for a rate limit above the organization's default maximum, and stores nothing", async () => {
    const response = await create({ environment: 'live', rateLimitPerMinute: 601 });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: "rateLimitPerMinute must be at most 600 (this organization's maximum)",
      details: [{ path: '/rateLimitPerMinute', message: "must be at most 600 (this organization's maximum)" }],
    });
    expect(await t.db.$count(apiKeys)).toBe(0);
  });

  it("applies the organization's own maximum, raised or lowered, instead of the default", async () => {
    await t.db.update(organizations).set({ maxKeyRateLimitPerMinute: 100_000 }).where(eq(organizations.id, orgA));
    const raised = await create({ environment: 'live', rateLimitPerMinute: 100_000 });
    expect(raised.statusCode).toBe(201);
    expect(raised.json().data.rateLimitPerMinute).toBe(100_000);
    // Another organization keeps the default.
    expect((await create({ environment: 'live', rateLimitPerMinute: 601 }, BOB, orgB)).statusCode).toBe(400);

    await t.db.update(organizations).set({ maxKeyRateLimitPerMinute: 120 }).where(eq(organizations.id, orgA));
    const lowered = await create({ environment: 'live', rateLimitPerMinute: 121 });
    expect(lowered.statusCode).toBe(400);
    expect(lowered.json().details).toEqual([
      { path: '/rateLimitPerMinute', message: "must be at most 120 (this organization's maximum)" },
    ]);
    expect((await create({ environment: 'live', rateLimitPerMinute: 120 })).statusCode).toBe(201);
    // Omitting the limit leaves it to the backend service's default, which the maximum does not bound.
    expect((await create({ environment: 'live' })).json().data.rateLimitPerMinute).toBeNull();
    // The key made above the lowered maximum keeps its limit.
    expect((await keyRow(raised.json().data.id))?.rateLimitPerMinute).toBe(100_000);
    expect(await t.db.$count(apiKeys)).toBe(3);
  });

  it('shows the secret only once: the list carries neither the secret nor its hash', async () => {
    const { data } = (await create({ environment: 'live' })).json();
    const listed = await list();
    expect(listed.body).not.toContain(data.secret);
    expect(listed.body).not.toContain(hashApiKeySecret(data.secret));
    expect(listed.json().data.apiKeys[0]).not.toHaveProperty('secret');
  });

  it('answers no stored hash or internal column in the JSON of create, list and revoke', async () => {
    // Internal columns of api_keys (and their snake_case spellings) that no answer may carry.
    const forbidden = ['secretHash', 'secret_hash', 'hash', 'organizationId', 'organization_id'];
    const created = await create({ environment: 'live' });
    const listed = await list();
    const revoked = await revoke(created.json().data.id);
    const keys = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object')
        for (const [key, inner] of Object.entries(value)) {
          keys.add(key);
          collect(inner);
        }
    };
    for (const response of [created, listed, revoked]) if (response.body) collect(response.json());
    expect(keys.size).toBeGreaterThan(3);
    expect(forbidden.filter((key) => keys.has(key))).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['no body', undefined, '/'],
    ['no environment', { name: 'x' }, '/environment'],
    ['an unknown environment', { environment: 'production' }, '/environment'],
    ['a blank name', { environment: 'live', name: '   ' }, '/name'],
    ['a 101-character name', { environment: 'live', name: 'n'.repeat(101) }, '/name'],
    ['a name with a control character', { environment: 'live', name: 'a\u0007b' }, '/name'],
    ['a name that is not a string', { environment: 'live', name: 5 }, '/name'],
    ['a rate limit of 0', { environment: 'live', rateLimitPerMinute: 0 }, '/rateLimitPerMinute'],
    ['a rate limit above 100000', { environment: 'live', rateLimitPerMinute: 100_001 }, '/rateLimitPerMinute'],
    ['a fractional rate limit', { environment: 'live', rateLimitPerMinute: 1.5 }, '/rateLimitPerMinute'],
    ['a rate limit as a string', { environment: 'live', rateLimitPerMinute: '100' }, '/rateLimitPerMinute'],
    ['a null rate limit', { environment: 'live', rateLimitPerMinute: null }, '/rateLimitPerMinute'],
    ['an unknown field', { environment: 'live', scopes: ['all'] }, '/scopes'],
    ['an array body', [{ environment: 'live' }], '/'],
  ])('answers 400 for %s and stores nothing', async (_label, payload, path) => {
    const before = await t.db.$count(apiKeys);
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error', requestId: expect.any(String) });
    expect(response.json().details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await t.db.$count(apiKeys)).toBe(before);
  });

  it('answers 400 without the organization header and stores nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: await authHeader(ALICE),
      payload: { environment: 'live' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'headers/x-organization-id', message: 'is required' }]);
    expect(await t.db.$count(apiKeys)).toBe(0);
  });

  it('refuses to create a key in an organization the user is not in, and stores nothing', async () => {
    const response = await create({ environment: 'live' }, BOB, orgA);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden', error: 'You are not a member of this organization' });
    expect(await t.db.$count(apiKeys)).toBe(0);
  });
});

describe('the default maximum per key (API_KEY_RATE_LIMIT_MAX_PER_MINUTE)', () => {
  let configured: TestApp;
  beforeAll(async () => {
    configured = await createTestApp({ env: { API_KEY_RATE_LIMIT_MAX_PER_MINUTE: '50' } });
  });
  afterAll(async () => {
    await configured?.close();
  });

  it('caps the rate limit of organizations without a maximum of their own', async () => {
    await insertUser(configured.db, { id: ALICE });
    const organizationId = await insertOrganization(configured.db, { members: [{ userId: ALICE }] });
    const send = async (rateLimitPerMinute: number) =>
      configured.app.inject({
        method: 'POST',
        url: '/v1/api-keys',
        headers: await headers(ALICE, organizationId),
        payload: { environment: 'test', rateLimitPerMinute },
      });
    const refused = await send(51);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().details).toEqual([
      { path: '/rateLimitPerMinute', message: "must be at most 50 (this organization's maximum)" },
    ]);
    expect(await configured.db.$count(apiKeys)).toBe(0);
    expect((await send(50)).statusCode).toBe(201);
  });
});

describe('GET /v1/api-keys', () => {
  it("lists the organization's active keys newest first, prefix and last four only", async () => {
    const [older, newer] = await seedKeys([
      { organizationId: orgA, minute: 1, environment: 'test' },
      { organizationId: orgA, minute: 2 },
    ]);
    await t.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(BASE + 90 * 60_000), rateLimitPerMinute: 30 })
      .where(eq(apiKeys.id, older!.id));
    const response = await list();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        apiKeys: [
          {
            id: newer?.id,
            name: 'Key 2',
            environment: 'live',
            prefix: 'sk_live_',
            lastFour: newer?.secret.slice(-4),
            rateLimitPerMinute: null,
            createdAt: '2024-06-01T00:02:00.000Z',
            lastUsedAt: null,
            revokedAt: null,
          },
          {
            id: older?.id,
            name: 'Key 1',
            environment: 'test',
            prefix: 'sk_test_',
            lastFour: older?.secret.slice(-4),
            rateLimitPerMinute: 30,
            createdAt: '2024-06-01T00:01:00.000Z',
            lastUsedAt: '2024-06-01T01:30:00.000Z',
            revokedAt: null,
          },
        ],
      },
    });
    for (const key of [older!, newer!]) {
      expect(response.body).not.toContain(key.secret);
      expect(response.body).not.toContain(key.secretHash);
    }
  });

  it('lists revoked keys only with includeRevoked=true', async () => {
    const [active, revoked] = await seedKeys([
      { organizationId: orgA, minute: 1 },
      { organizationId: orgA, minute: 2, revokedMinute: 3 },
    ]);
    const ids = async (query: string) => (await list(query)).json().data.apiKeys.map((key: { id: string }) => key.id);
    expect(await ids('')).toEqual([active?.id]);
    expect(await ids('?includeRevoked=false')).toEqual([active?.id]);
    expect(await ids('?includeRevoked=true')).toEqual([revoked?.id, active?.id]);
    const all = (await list('?includeRevoked=true')).json().data.apiKeys;
    expect(all[0].revokedAt).toBe('2024-06-01T00:03:00.000Z');
  });

  it('answers 400 for an includeRevoked that is not a boolean', async () => {
    const response = await list('?includeRevoked=sometimes');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error' });
  });

  it('returns an empty list for an organization without keys', async () => {
    expect((await list()).json()).toEqual({ success: true, data: { apiKeys: [] } });
  });
});

describe('DELETE /v1/api-keys/:id', () => {
  it('revokes the key: it stops authenticating at once and leaves the active list', async () => {
    const { data } = (await create({ environment: 'live' })).json();
    expect(await findActiveApiKey(t.db, data.secret)).not.toBeNull();

    const response = await revoke(data.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'API key revoked' });
    expect(await findActiveApiKey(t.db, data.secret)).toBeNull();
    expect((await keyRow(data.id))?.revokedAt?.toISOString()).toBe(NOW.toISOString());
    expect((await list()).json().data.apiKeys).toEqual([]);
    expect((await list('?includeRevoked=true')).json().data.apiKeys[0]).toMatchObject({
      id: data.id,
      revokedAt: NOW.toISOString(),
    });
  });

  it('succeeds again on a revoked key and keeps its first revocation time', async () => {
    const [key] = await seedKeys([{ organizationId: orgA, minute: 1, revokedMinute: 5 }]);
    const response = await revoke(key!.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'API key revoked' });
    expect((await keyRow(key!.id))?.revokedAt?.toISOString()).toBe('2024-06-01T00:05:00.000Z');
  });

  it.each([
    ['an unknown id', UNKNOWN_ID],
    ['a malformed id', 'not-a-uuid'],
  ])('answers 404 for %s', async (_label, id) => {
    const response = await revoke(id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, error: 'API key not found', code: 'not_found' });
  });
});

describe('isolation between organizations', () => {
  it("gives a member of B the 403 under A's id and never A's keys under B's id", async () => {
    const { data: aliceKey } = (await create({ environment: 'live' })).json();
    await seedKeys([{ organizationId: orgB, minute: 1 }]);

    for (const response of [await list('', BOB, orgA), await revoke(aliceKey.id, BOB, orgA)]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ code: 'forbidden', error: 'You are not a member of this organization' });
    }

    const bobsList = (await list('?includeRevoked=true', BOB, orgB)).json().data.apiKeys;
    expect(bobsList.map((key: { name: string }) => key.name)).toEqual(['Key 1']);

    const crossRevoke = await revoke(aliceKey.id, BOB, orgB);
    expect(crossRevoke.statusCode).toBe(404);
    const unknown = await revoke(UNKNOWN_ID, BOB, orgB);
    const { requestId: _a, ...crossBody } = crossRevoke.json();
    const { requestId: _b, ...unknownBody } = unknown.json();
    expect(crossBody).toEqual(unknownBody);

    expect(await findActiveApiKey(t.db, aliceKey.secret)).toMatchObject({ id: aliceKey.id, organizationId: orgA });
    expect((await keyRow(aliceKey.id))?.revokedAt).toBeNull();
  });
});

describe('authentication', () => {
  it.each([
    ['POST', '/v1/api-keys'],
    ['GET', '/v1/api-keys'],
    ['DELETE', `/v1/api-keys/${UNKNOWN_ID}`],
  ] as const)('%s %s answers 401 without a token', async (method, url) => {
    const response = await t.app.inject({
      method,
      url,
      headers: { 'x-organization-id': orgA },
      ...(method === 'POST' ? { payload: { environment: 'live' } } : {}),
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(response.json()).toMatchObject({ success: false, code: 'unauthorized' });
    expect(await t.db.$count(apiKeys)).toBe(0);
  });
});

describe('OpenAPI', () => {
  it('documents the routes, their schemas and the organization header', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ApiKey', 'ApiKeyList', 'CreatedApiKey']),
    );
    const operations = [
      document.paths['/v1/api-keys'].post,
      document.paths['/v1/api-keys'].get,
      document.paths['/v1/api-keys/{id}'].delete,
    ];
    for (const operation of operations) {
      expect(operation.tags).toEqual(['api-keys']);
      expect(operation.parameters).toContainEqual(
        expect.objectContaining({ in: 'header', name: 'x-organization-id', required: true }),
      );
    }
    expect(document.paths['/v1/api-keys'].post.responses['201']).toBeDefined();
  });
});
