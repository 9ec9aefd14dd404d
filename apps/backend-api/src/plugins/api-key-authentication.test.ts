import { createApiKey, revokeApiKey } from '@platform/api-keys';
import type { DatabaseHandle } from '@platform/db';
import { organizations } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BackendApp, buildApp } from '../app.js';
import { loadBackendApiConfig } from '../config.js';

describe('API-key authentication', () => {
  let database: DatabaseHandle;
  let app: BackendApp;
  let organizationId: string;
  let liveSecret: string;
  let testSecret: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const [organization] = await database.db.insert(organizations).values({ name: 'Acme' }).returning();
    organizationId = organization!.id;
    liveSecret = (await createApiKey(database.db, { organizationId, environment: 'live' })).secret;
    testSecret = (await createApiKey(database.db, { organizationId, environment: 'test', rateLimitPerMinute: 120 }))
      .secret;

    app = buildApp({ database }, loadBackendApiConfig({ LOG_LEVEL: 'silent' }));
    // A probe route standing in for the verification and drive routes of later modules.
    app.register(async (scope) => {
      scope.get('/v1/probe', async (request) => ({ apiKey: request.apiKey }));
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const probe = (key?: string) =>
    app.inject({ method: 'GET', url: '/v1/probe', headers: key === undefined ? {} : { 'x-service-api-key': key } });

  it('accepts a live key and tells the route its organization and environment', async () => {
    const response = await probe(liveSecret);
    expect(response.statusCode).toBe(200);
    expect(response.json().apiKey).toMatchObject({ organizationId, environment: 'live', rateLimitPerMinute: null });
  });

  it('takes the environment from a test key', async () => {
    const response = await probe(testSecret);
    expect(response.json().apiKey).toMatchObject({ organizationId, environment: 'test', rateLimitPerMinute: 120 });
  });

  it.each([
    ['missing', undefined, /Missing API key/],
    ['empty', '', /Missing API key/],
    ['unknown', `sk_live_${'x'.repeat(43)}`, /Invalid or revoked API key/],
    ['not a key at all', 'hello', /Invalid or revoked API key/],
  ])('refuses a %s key with the 401 envelope', async (_label, key, message) => {
    const response = await probe(key);
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^ApiKey/);
    const body = response.json();
    expect(body).toMatchObject({ success: false, code: 'unauthorized' });
    expect(body.error).toMatch(message);
    expect(body.requestId).toBe(response.headers['x-request-id']);
  });

  it.each([
    ['Bearer', (key: string) => `Bearer ${key}`],
    ['bare', (key: string) => key],
  ])('tells a key sent in Authorization (%s) to go in x-service-api-key, without echoing it', async (_label, form) => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/probe',
      headers: { authorization: form(liveSecret) },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('ApiKey header="x-service-api-key"');
    expect(response.json()).toMatchObject({
      code: 'unauthorized',
      error:
        'API keys are not sent in the Authorization header: send your secret key in the x-service-api-key header instead',
    });
    expect(response.body).not.toContain(liveSecret);
  });

  it('refuses a key with the other environment prefix', async () => {
    const swapped = liveSecret.replace('sk_live_', 'sk_test_');
    expect((await probe(swapped)).statusCode).toBe(401);
  });

  it('stops accepting a key at once when it is revoked', async () => {
    const key = await createApiKey(database.db, { organizationId, environment: 'live' });
    expect((await probe(key.secret)).statusCode).toBe(200);
    await revokeApiKey(database.db, { id: key.id });
    expect((await probe(key.secret)).statusCode).toBe(401);
  });

  it('leaves the operational routes public', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const openapi = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.json().components.securitySchemes.apiKey).toMatchObject({ in: 'header', name: 'x-service-api-key' });
  });

  it('answers an unknown route with the 404 envelope, key or not', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/nowhere' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'not_found' });
  });

  it('never writes the secret into the logs', async () => {
    const lines: string[] = [];
    const capturing = buildApp(
      {
        database,
        logger: pino({ level: 'trace' }, { write: (line: string) => void lines.push(line) }),
      },
      loadBackendApiConfig({}),
    );
    capturing.register(async (scope) => {
      scope.get('/v1/probe', async () => ({ ok: true }));
    });
    await capturing.inject({ method: 'GET', url: '/v1/probe', headers: { 'x-service-api-key': liveSecret } });
    await capturing.inject({ method: 'GET', url: '/v1/probe', headers: { 'x-service-api-key': `${liveSecret}x` } });
    await capturing.close();
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(liveSecret);
  });
});
