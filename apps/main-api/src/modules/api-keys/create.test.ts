import { findActiveApiKey, hashApiKeySecret } from '@platform/api-keys';
import { apiKeys, organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALICE, BOB, SECRET, useApiKeysApp } from '../../../test/api-key-fixtures.js';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { API_KEY_CREATED } from './routes.js';

const setup = useApiKeysApp();
const { headers, create, list, revoke, keyRow } = setup;

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
        permissions: [],
        createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      },
    });

    expect(await findActiveApiKey(setup.t.db, body.data.secret)).toEqual({
      id: body.data.id,
      organizationId: setup.orgA,
      environment: 'live',
      rateLimitPerMinute: null,
      permissions: [],
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
    expect(await findActiveApiKey(setup.t.db, data.secret)).toMatchObject({
      environment: 'test',
      rateLimitPerMinute: 120,
    });
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
    expect(await setup.t.db.$count(apiKeys)).toBe(0);
  });

  it("applies the organization's own maximum, raised or lowered, instead of the default", async () => {
    await setup.t.db
      .update(organizations)
      .set({ maxKeyRateLimitPerMinute: 100_000 })
      .where(eq(organizations.id, setup.orgA));
    const raised = await create({ environment: 'live', rateLimitPerMinute: 100_000 });
    expect(raised.statusCode).toBe(201);
    expect(raised.json().data.rateLimitPerMinute).toBe(100_000);
    // Another organization keeps the default.
    expect((await create({ environment: 'live', rateLimitPerMinute: 601 }, BOB, setup.orgB)).statusCode).toBe(400);

    await setup.t.db
      .update(organizations)
      .set({ maxKeyRateLimitPerMinute: 120 })
      .where(eq(organizations.id, setup.orgA));
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
    expect(await setup.t.db.$count(apiKeys)).toBe(3);
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
    const before = await setup.t.db.$count(apiKeys);
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error', requestId: expect.any(String) });
    expect(response.json().details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await setup.t.db.$count(apiKeys)).toBe(before);
  });

  it('answers 400 without the organization header and stores nothing', async () => {
    const response = await setup.t.app.inject({
      method: 'POST',
      url: '/v1/api-keys',
      headers: await authHeader(ALICE),
      payload: { environment: 'live' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'headers/x-organization-id', message: 'is required' }]);
    expect(await setup.t.db.$count(apiKeys)).toBe(0);
  });

  it('refuses to create a key in an organization the user is not in, and stores nothing', async () => {
    const response = await create({ environment: 'live' }, BOB, setup.orgA);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden', error: 'You are not a member of this organization' });
    expect(await setup.t.db.$count(apiKeys)).toBe(0);
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
