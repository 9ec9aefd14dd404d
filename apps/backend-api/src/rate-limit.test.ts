import { randomUUID } from 'node:crypto';
import { createApiKey } from '@platform/api-keys';
import type { DatabaseHandle } from '@platform/db';
import { organizations } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { createRedisClient } from '@platform/rate-limit';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { missing, redisServer } from '#test-prerequisites';
import { closedPort } from '#test-timing';
import { type BackendApiDeps, type BackendApp, buildApp } from './app.js';
import { loadBackendApiConfig } from './config.js';

type Response = Awaited<ReturnType<BackendApp['inject']>>;

let database: DatabaseHandle;
const apps: BackendApp[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  for (const redis of clients.splice(0)) redis.disconnect();
});
afterAll(async () => {
  await database.close();
});

async function build(deps: Partial<BackendApiDeps> = {}, env: NodeJS.ProcessEnv = {}): Promise<BackendApp> {
  const app = buildApp(
    { database, ...deps },
    loadBackendApiConfig({ LOG_LEVEL: 'silent', IDEMPOTENCY_PURGE_INTERVAL_MS: '0', ...env }),
  );
  apps.push(app);
  await app.ready();
  return app;
}

/** A fresh key of a fresh organization, so every test spends a budget of its own. */
async function newKey(rateLimitPerMinute?: number): Promise<string> {
  const [organization] = await database.db.insert(organizations).values({ name: 'Rate limited' }).returning();
  const key = await createApiKey(database.db, {
    organizationId: organization!.id,
    environment: 'live',
    ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
  });
  return key.secret;
}

const listFolders = (app: BackendApp, key?: string) =>
  app.inject({
    method: 'GET',
    url: '/v1/drive/folders',
    headers: key === undefined ? {} : { 'x-service-api-key': key },
  });

/** Sends `count` requests one after the other and checks each answer's status and limit headers. */
async function spend(app: BackendApp, key: string | undefined, count: number, status: number, limit: number) {
  for (let i = 1; i <= count; i += 1) {
    const response = await listFolders(app, key);
    expect(response.statusCode).toBe(status);
    expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
    expect(response.headers['x-ratelimit-remaining']).toBe(String(limit - i));
    expect(Number(response.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
  }
}

function expectRateLimited(response: Response, limit: number) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({
    success: false,
    code: 'rate_limited',
    error: expect.stringMatching(/^Rate limit exceeded, retry in \d+ seconds$/),
    requestId: response.headers['x-request-id'],
  });
  const retryAfter = Number(response.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(response.headers['x-ratelimit-limit']).toBe(String(limit));
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
}

async function scrape(app: BackendApp): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/metrics' })).body;
}

describe('rate limits in process', () => {
  it('answers the 61st request of a minute from one key with the 429 envelope and Retry-After', async () => {
    const app = await build();
    const key = await newKey();
    await spend(app, key, 60, 200, 60);
    expectRateLimited(await listFolders(app, key), 60);
    // Another key of the same address is not affected.
    expect((await listFolders(app, await newKey())).statusCode).toBe(200);

    const metrics = await scrape(app);
    expect(metrics).toMatch(/^rate_limit_rejections_total 1$/m);
    expect(metrics).toMatch(/^http_requests_total\{method="GET",route="\/v1\/drive\/folders",status_code="200"\} 61$/m);
    expect(metrics).toMatch(/^http_requests_total\{method="GET",route="\/v1\/drive\/folders",status_code="429"\} 1$/m);
  });

  it("applies the key's own limit", async () => {
    const app = await build();
    const key = await newKey(5);
    await spend(app, key, 5, 200, 5);
    expectRateLimited(await listFolders(app, key), 5);
  });

  it('takes the default from RATE_LIMIT_PER_MINUTE', async () => {
    const app = await build({}, { RATE_LIMIT_PER_MINUTE: '3' });
    const key = await newKey();
    await spend(app, key, 3, 200, 3);
    expectRateLimited(await listFolders(app, key), 3);
  });

  it('limits requests with a missing or invalid key per client IP: the 61st bad key gets 429, not 401', async () => {
    const app = await build();
    await spend(app, `sk_live_${'x'.repeat(43)}`, 30, 401, 60);
    for (let i = 0; i < 30; i += 1) expect((await listFolders(app)).statusCode).toBe(401);
    expectRateLimited(await listFolders(app, `sk_live_${'y'.repeat(43)}`), 60);
    expectRateLimited(await listFolders(app), 60);

    // A valid key behind the same address keeps its own budget.
    expect((await listFolders(app, await newKey())).statusCode).toBe(200);
    const otherAddress = await app.inject({ method: 'GET', url: '/v1/drive/folders', remoteAddress: '10.1.2.3' });
    expect(otherAddress.statusCode).toBe(401);
  });

  it('refuses a bad key before reading the body', async () => {
    const app = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/drive/folders',
      headers: { 'x-service-api-key': `sk_live_${'z'.repeat(43)}`, 'content-type': 'application/json' },
      payload: '{ not json',
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['x-ratelimit-limit']).toBe('60');
  });

  it('limits unknown routes per client IP', async () => {
    const app = await build({}, { RATE_LIMIT_PER_MINUTE: '2' });
    for (let i = 0; i < 2; i += 1)
      expect((await app.inject({ method: 'GET', url: `/v1/unknown/${i}` })).statusCode).toBe(404);
    expectRateLimited(await app.inject({ method: 'GET', url: '/v1/unknown/2' }), 2);
    expect(await scrape(app)).toMatch(/^http_requests_total\{method="GET",route="unmatched",status_code="429"\} 1$/m);
  });

  it("counts the hosted verification page (GET and POST /session/:id) against the client IP's budget", async () => {
    const app = await build({}, { RATE_LIMIT_PER_MINUTE: '3' });
    const page = `/session/${randomUUID()}`;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const view = await app.inject({ method: 'GET', url: page });
    expect(view.statusCode).toBe(404);
    expect(view.headers['x-ratelimit-remaining']).toBe('2');
    const post = await app.inject({ method: 'POST', url: page, headers: form, payload: 'token=x&action=submit' });
    expect(post.statusCode).not.toBe(429);
    expect(post.headers['x-ratelimit-remaining']).toBe('1');
    // The same address's requests without a valid key share that budget.
    expect((await listFolders(app)).statusCode).toBe(401);
    expectRateLimited(await app.inject({ method: 'GET', url: page }), 3);
    expectRateLimited(
      await app.inject({ method: 'POST', url: page, headers: form, payload: 'token=x&action=submit' }),
      3,
    );

    // Another address, and a valid key behind this one, keep their own budgets.
    expect((await app.inject({ method: 'GET', url: page, remoteAddress: '10.1.2.3' })).statusCode).toBe(404);
    expect((await listFolders(app, await newKey())).statusCode).toBe(200);
  });

  it('never limits the operational routes', async () => {
    const app = await build({}, { RATE_LIMIT_PER_MINUTE: '1' });
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/metrics']) {
      for (let i = 0; i < 3; i += 1) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['x-ratelimit-limit'], url).toBeUndefined();
      }
    }
  });

  it('keeps /metrics behind METRICS_TOKEN when it is set', async () => {
    const token = 'backend-metrics-token-0123';
    const app = await build({}, { METRICS_TOKEN: token });
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const response = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('rate_limit_rejections_total');
  });
});

describe('rate limits with Redis unreachable', () => {
  it('serves requests, logs one warning, counts each failed Redis call and reports Redis down while ready', async () => {
    // Nothing listens on this port.
    const redis = createRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    clients.push(redis);
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const app = await build({ redis, logger }, { RATE_LIMIT_PER_MINUTE: '2' });
    const key = await newKey();
    for (let i = 0; i < 4; i += 1) expect((await listFolders(app, key)).statusCode).toBe(200);

    expect(lines.filter((line) => line.includes('Rate limits are not enforced'))).toHaveLength(1);
    expect(await scrape(app)).toMatch(/^redis_failures_total 4$/m);
    // Still ready (the database answers): an orchestrator must not take every instance out over Redis.
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } });
  });
});

describe.skipIf(missing(redisServer))('rate limits on Redis (REDIS_URL)', () => {
  const url = process.env.REDIS_URL as string;
  const connectedClient = async () => {
    const redis = createRedisClient(url);
    clients.push(redis);
    await redis.connect();
    return redis;
  };

  it('answers the 61st request of a minute from one key with the 429 envelope and Retry-After', async () => {
    const app = await build({ redis: await connectedClient() });
    const key = await newKey();
    await spend(app, key, 60, 200, 60);
    expectRateLimited(await listFolders(app, key), 60);
    expect(await scrape(app)).toMatch(/^redis_failures_total 0$/m);
  });

  it("applies the key's own limit", async () => {
    const app = await build({ redis: await connectedClient() });
    const key = await newKey(5);
    await spend(app, key, 5, 200, 5);
    expectRateLimited(await listFolders(app, key), 5);
  });

  it('holds one budget across two instances sharing Redis', async () => {
    const first = await build({ redis: await connectedClient() });
    const second = await build({ redis: await connectedClient() });
    const key = await newKey();
    for (let i = 0; i < 30; i += 1) {
      expect((await listFolders(first, key)).statusCode).toBe(200);
      expect((await listFolders(second, key)).statusCode).toBe(200);
    }
    expectRateLimited(await listFolders(first, key), 60);
    expectRateLimited(await listFolders(second, key), 60);
  });
});
