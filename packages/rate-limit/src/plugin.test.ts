import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { unauthorized } from '@platform/errors';
import { type AppServer, createServer } from '@platform/http';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { missing, redisServer } from '#test-prerequisites';
import { closedPort } from '#test-timing';
import { type RateLimitIdentity, type RateLimitOptions, rateLimiting } from './plugin.js';
import { createRedisClient } from './redis-client.js';

type LogLine = { level: number; msg?: string };

declare module 'fastify' {
  interface FastifyRequest {
    testCredential: RateLimitIdentity | null;
    testCredentialFailure: Error | null;
  }
}

/**
 * Authentication the way the services do it: resolve the credential in onRequest without throwing, refuse in
 * preParsing. `x-test-key: <id>` is a valid credential (`<id>:<limit>` with its own limit); `bad` is not.
 */
const testAuthentication = fp(async (app) => {
  app.decorateRequest('testCredential', null);
  app.decorateRequest('testCredentialFailure', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404 || request.routeOptions.config.public === true) return;
    const header = request.headers['x-test-key'];
    if (typeof header !== 'string' || header === 'bad') {
      request.testCredentialFailure = unauthorized('Invalid test key');
      return;
    }
    const [id, limit] = header.split(':');
    request.testCredential = { key: `key:${id}`, ...(limit === undefined ? {} : { perMinute: Number(limit) }) };
  });
  app.addHook('preParsing', async (request) => {
    // Routes of contexts created before the decoration (the probes, the 404 handler) see undefined, not null.
    if (request.testCredentialFailure) throw request.testCredentialFailure;
  });
});

const apps: AppServer[] = [];
const clients: Redis[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
  for (const client of clients.splice(0)) client.disconnect();
});

async function build(options: Partial<RateLimitOptions> = {}): Promise<{ app: AppServer; logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') logs.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const app = createServer({
    service: { name: 'rate-limit-test', version: '1.0.0', description: 'Rate limit under test' },
    logger: pino({ level: 'info' }, destination),
  });
  app.register(testAuthentication);
  app.register(rateLimiting, {
    defaultPerMinute: 3,
    namespace: `rate-limit-test:${randomUUID()}`,
    identify: (request: FastifyRequest) => request.testCredential ?? null,
    metrics: app.metrics,
    ...options,
  });
  app.register(async (routes) => {
    routes.get('/v1/things', async () => ({ ok: true }));
    routes.post('/v1/things', async () => ({ created: true }));
    routes.get('/v1/open', { config: { public: true } }, async () => ({ open: true }));
    routes.post('/v1/hook', { config: { public: true, rateLimit: false } }, async () => ({ received: true }));
  });
  apps.push(app);
  await app.ready();
  return { app, logs };
}

const things = (app: AppServer, key?: string, remoteAddress = '127.0.0.1') =>
  app.inject({
    method: 'GET',
    url: '/v1/things',
    remoteAddress,
    headers: key === undefined ? {} : { 'x-test-key': key },
  });

async function counter(app: AppServer, name: 'rateLimitRejections' | 'redisFailures'): Promise<number> {
  return (await app.metrics[name].get()).values[0]?.value ?? 0;
}

function expectRateLimited(response: Awaited<ReturnType<AppServer['inject']>>, limit: number) {
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

describe('rate limiting in process', () => {
  it('puts the limit headers on every answer and refuses past the limit with the 429 envelope', async () => {
    const { app } = await build();
    for (let i = 1; i <= 3; i += 1) {
      const response = await things(app, 'alpha');
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('3');
      expect(response.headers['x-ratelimit-remaining']).toBe(String(3 - i));
      const reset = Number(response.headers['x-ratelimit-reset']);
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    expectRateLimited(await things(app, 'alpha'), 3);
    expect(await counter(app, 'rateLimitRejections')).toBe(1);

    // Another credential, even from the same address, has its own budget.
    expect((await things(app, 'beta')).statusCode).toBe(200);
  });

  it("applies a credential's own limit", async () => {
    const { app } = await build({ defaultPerMinute: 100 });
    for (let i = 0; i < 5; i += 1) expect((await things(app, 'gamma:5')).headers['x-ratelimit-limit']).toBe('5');
    expectRateLimited(await things(app, 'gamma:5'), 5);
    expect((await things(app, 'delta')).headers['x-ratelimit-limit']).toBe('100');
  });

  it('limits requests with a missing or invalid credential per client IP, before refusing them', async () => {
    const { app } = await build();
    const refused = [await things(app), await things(app, 'bad'), await things(app, 'bad')];
    for (const [index, response] of refused.entries()) {
      expect(response.statusCode).toBe(401);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(2 - index));
    }
    expectRateLimited(await things(app, 'bad'), 3);
    expectRateLimited(await things(app), 3);

    expect((await things(app, 'bad', '10.0.0.2')).statusCode).toBe(401);
    // The address's budget is not the credential's: a valid key from there still works.
    expect((await things(app, 'epsilon')).statusCode).toBe(200);
  });

  it('refuses an unauthenticated upload before reading its body', async () => {
    const { app } = await build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/things',
      headers: { 'x-test-key': 'bad', 'content-type': 'application/json' },
      payload: '{ this is not JSON',
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['x-ratelimit-limit']).toBe('3');
  });

  it('limits unknown routes per client IP', async () => {
    const { app } = await build();
    for (let i = 0; i < 3; i += 1) {
      const response = await app.inject({ method: 'GET', url: `/v1/scan/${i}` });
      expect(response.statusCode).toBe(404);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    expectRateLimited(await app.inject({ method: 'GET', url: '/v1/scan/again' }), 3);
  });

  it('never limits the probes, /metrics and the documentation', async () => {
    const { app } = await build({ defaultPerMinute: 1 });
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/metrics', '/docs/json']) {
      for (let i = 0; i < 3; i += 1) {
        const response = await app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers['x-ratelimit-limit'], url).toBeUndefined();
      }
    }
  });

  it("counts public routes against the client IP's budget, shared with requests without a valid credential", async () => {
    const { app } = await build();
    const open = (remoteAddress = '127.0.0.1') => app.inject({ method: 'GET', url: '/v1/open', remoteAddress });
    for (let i = 0; i < 2; i += 1) {
      const response = await open();
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-remaining']).toBe(String(2 - i));
    }
    expect((await things(app, 'bad')).statusCode).toBe(401);
    expectRateLimited(await open(), 3);
    // Another address has its own budget.
    expect((await open('192.0.2.7')).statusCode).toBe(200);
  });

  it('never limits a route that says rateLimit: false', async () => {
    const { app } = await build({ defaultPerMinute: 1 });
    for (let i = 0; i < 5; i += 1) {
      const response = await app.inject({ method: 'POST', url: '/v1/hook' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('counts rejections in the metrics /metrics shows', async () => {
    const { app } = await build({ defaultPerMinute: 1 });
    await things(app, 'zeta');
    await things(app, 'zeta');
    await things(app, 'zeta');
    const text = (await app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(text).toMatch(/^rate_limit_rejections_total 2$/m);
    expect(text).toMatch(/^http_requests_total\{method="GET",route="\/v1\/things",status_code="429"\} 2$/m);
  });
});

describe('rate limiting with Redis unreachable', () => {
  it('serves requests, logs the outage once and counts every failed store call', async () => {
    // Nothing listens on this port.
    const redis = createRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    clients.push(redis);
    const { app, logs } = await build({ defaultPerMinute: 1, redis });
    for (let i = 0; i < 4; i += 1) {
      const response = await things(app, 'eta');
      expect(response.statusCode).toBe(200);
      expect(response.headers['x-ratelimit-limit']).toBe('1');
    }
    expect(await counter(app, 'redisFailures')).toBe(4);
    const together = await Promise.all(Array.from({ length: 3 }, () => things(app, 'eta')));
    expect(together.map((response) => response.statusCode)).toEqual([200, 200, 200]);
    expect(await counter(app, 'redisFailures')).toBe(7);
    const warnings = logs.filter((line) => line.level === 40 && line.msg?.includes('Rate limits are not enforced'));
    expect(warnings).toHaveLength(1);
  });
});

describe.skipIf(missing(redisServer))('rate limiting on Redis (REDIS_URL)', () => {
  const url = process.env.REDIS_URL as string;
  const client = async () => {
    const redis = createRedisClient(url);
    clients.push(redis);
    await redis.connect();
    return redis;
  };

  it('answers the 61st request of a minute with the 429 envelope and Retry-After', async () => {
    const { app } = await build({ defaultPerMinute: 60, redis: await client() });
    for (let i = 0; i < 60; i += 1) expect((await things(app, 'theta')).statusCode).toBe(200);
    expectRateLimited(await things(app, 'theta'), 60);
    expect(await counter(app, 'rateLimitRejections')).toBe(1);
    expect(await counter(app, 'redisFailures')).toBe(0);
  });

  it("applies a credential's own limit", async () => {
    const { app } = await build({ defaultPerMinute: 60, redis: await client() });
    for (let i = 0; i < 5; i += 1) expect((await things(app, 'iota:5')).statusCode).toBe(200);
    expectRateLimited(await things(app, 'iota:5'), 5);
  });

  it('shares one budget between two instances', async () => {
    const namespace = `rate-limit-test:${randomUUID()}`;
    const first = await build({ namespace, defaultPerMinute: 4, redis: await client() });
    const second = await build({ namespace, defaultPerMinute: 4, redis: await client() });
    expect((await things(first.app, 'kappa')).statusCode).toBe(200);
    expect((await things(second.app, 'kappa')).headers['x-ratelimit-remaining']).toBe('2');
    expect((await things(first.app, 'kappa')).statusCode).toBe(200);
    expect((await things(second.app, 'kappa')).statusCode).toBe(200);
    expectRateLimited(await things(first.app, 'kappa'), 4);
    expectRateLimited(await things(second.app, 'kappa'), 4);
  });

  it('counts the requests of one budget arriving together in one call, each with its own count', async () => {
    const redis = await client();
    const sent = vi.spyOn(redis, 'sendCommand');
    const { app } = await build({ defaultPerMinute: 10, redis });
    const responses = await Promise.all(Array.from({ length: 5 }, () => things(app, 'nu')));
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const remaining = responses.map((response) => Number(response.headers['x-ratelimit-remaining']));
    expect(remaining.sort()).toEqual([5, 6, 7, 8, 9]);
    const increments = sent.mock.calls.filter(([command]) => ['eval', 'evalsha'].includes(command.name));
    expect(increments).toHaveLength(1);
    expect((await things(app, 'nu')).headers['x-ratelimit-remaining']).toBe('4');
  });

  it('lets exactly the budget through when more requests than it arrive together, and keeps budgets apart', async () => {
    const { app } = await build({ defaultPerMinute: 3, redis: await client() });
    const together = await Promise.all([
      ...Array.from({ length: 5 }, () => things(app, 'xi')),
      ...Array.from({ length: 2 }, () => things(app, 'omicron')),
    ]);
    const codes = (key: number[]) => key.map((index) => together[index]?.statusCode);
    expect(codes([0, 1, 2, 3, 4]).sort()).toEqual([200, 200, 200, 429, 429]);
    expect(codes([5, 6])).toEqual([200, 200]);
    expect(await counter(app, 'rateLimitRejections')).toBe(2);
  });

  it('keeps each counter for one window only, under the namespace', async () => {
    const namespace = `rate-limit-test:${randomUUID()}`;
    const redis = await client();
    const { app } = await build({ namespace, redis });
    await things(app, 'lambda');
    const ttl = await redis.pttl(`${namespace}:key:lambda`);
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('starts a fresh window for a counter that lost its expiry', async () => {
    const namespace = `rate-limit-test:${randomUUID()}`;
    const redis = await client();
    await redis.set(`${namespace}:key:mu`, '1000');
    const { app } = await build({ namespace, redis });
    const response = await things(app, 'mu');
    expect(response.statusCode).toBe(200);
    expect(response.headers['x-ratelimit-remaining']).toBe('2');
    expect(await redis.pttl(`${namespace}:key:mu`)).toBeGreaterThan(0);
  });
});
