import { randomUUID } from 'node:crypto';
import { createRedisClient } from '@platform/rate-limit';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { missing, redisServer } from '#test-prerequisites';
import { closedPort } from '#test-timing';
import { FAKE_DARAJA, fakeDarajaEnv } from '../test/fake-daraja.js';
import { FAKE_PAYSTACK_SECRET } from '../test/fake-paystack.js';
import { authHeader, createTestApp, type TestApp } from '../test/helpers.js';

async function notifications(t: TestApp, userId: string) {
  return t.app.inject({ method: 'GET', url: '/v1/notifications', headers: await authHeader(userId) });
}

function expectRateLimited(response: Awaited<ReturnType<TestApp['app']['inject']>>) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({
    success: false,
    code: 'rate_limited',
    error: expect.stringMatching(/^Rate limit exceeded/),
    requestId: response.headers['x-request-id'],
  });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(response.headers['x-ratelimit-remaining']).toBe('0');
}

describe('per-user rate limit', () => {
  it('answers 429 with the envelope and headers once a user exceeds the limit, per user', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const first = await notifications(t, 'user_rl_a');
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-ratelimit-limit']).toBe('2');
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      expect(Number(first.headers['x-ratelimit-reset'])).toBeGreaterThan(0);
      expect((await notifications(t, 'user_rl_a')).statusCode).toBe(200);

      expectRateLimited(await notifications(t, 'user_rl_a'));

      expect((await notifications(t, 'user_rl_b')).statusCode).toBe(200);
      // Probes, documentation and metrics are never limited.
      for (const url of ['/healthz', '/readyz', '/openapi.json', '/metrics']) {
        for (let i = 0; i < 3; i += 1) expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
      }

      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/^rate_limit_rejections_total 1$/m);
      expect(metrics).toMatch(/^http_requests_total\{method="GET",route="\/v1\/notifications",status_code="429"\} 1$/m);
    } finally {
      await t.close();
    }
  });

  it('limits requests without a valid token per client IP, so tokens cannot be guessed at length', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const guess = (authorization?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/v1/notifications',
        headers: authorization === undefined ? {} : { authorization },
      });
    try {
      for (const authorization of [undefined, 'Bearer not.a.token', 'Bearer another.bad.token']) {
        const refused = await guess(authorization);
        expect(refused.statusCode).toBe(401);
        expect(refused.headers['x-ratelimit-limit']).toBe('3');
      }
      expectRateLimited(await guess('Bearer yet.another.token'));
      expectRateLimited(await guess());
      // A real user behind the same address has a budget of their own.
      expect((await notifications(t, 'user_rl_d')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("counts the public payment pages against the client IP's budget", async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
    const reference = `PAY-${randomUUID()}`;
    const checkout = `/v1/billing/sandbox/checkout/${reference}`;
    const pages = [
      () => t.app.inject({ method: 'GET', url: checkout }),
      () =>
        t.app.inject({
          method: 'POST',
          url: checkout,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'token=x&action=pay',
        }),
      () => t.app.inject({ method: 'GET', url: `/v1/billing/checkout/complete?reference=${reference}` }),
    ];
    try {
      for (const [index, page] of pages.entries()) {
        const response = await page();
        expect(response.statusCode).not.toBe(429);
        expect(response.headers['x-ratelimit-remaining']).toBe(String(2 - index));
      }
      for (const page of pages) expectRateLimited(await page());
      const elsewhere = await t.app.inject({ method: 'GET', url: checkout, remoteAddress: '10.1.2.3' });
      expect(elsewhere.statusCode).toBe(404);
      // A signed-in user behind the same address keeps a budget of their own.
      expect((await notifications(t, 'user_rl_pages')).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it("never limits the providers' callbacks or the avatar files", async () => {
    const providers = {
      PAYSTACK_SECRET_KEY: FAKE_PAYSTACK_SECRET,
      PAYSTACK_BASE_URL: 'http://127.0.0.1:9',
      ...fakeDarajaEnv('http://127.0.0.1:9'),
    };
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1', ...providers } });
    const calls = [
      // Unsigned: answered 200 and ignored, like every Paystack webhook.
      () =>
        t.app.inject({ method: 'POST', url: '/v1/billing/webhooks/paystack', payload: { event: 'charge.success' } }),
      () =>
        t.app.inject({ method: 'POST', url: `/v1/billing/webhooks/mpesa/${FAKE_DARAJA.callbackToken}`, payload: {} }),
      () => t.app.inject({ method: 'GET', url: '/v1/files/avatars/none.png' }),
    ];
    try {
      for (const call of calls) {
        for (let i = 0; i < 3; i += 1) {
          const response = await call();
          expect(response.statusCode).not.toBe(429);
          expect(response.headers['x-ratelimit-limit']).toBeUndefined();
        }
      }
      // The budget itself is 1: a request that is limited gets 429 at the second try.
      expect((await notifications(t, 'user_rl_hooks')).statusCode).toBe(200);
      expectRateLimited(await notifications(t, 'user_rl_hooks'));
    } finally {
      await t.close();
    }
  });

  it('lets requests through, logs once and counts the failures when Redis is down', async () => {
    // Nothing listens on this port: every Redis command fails at once.
    const redis = createRedisClient(`redis://127.0.0.1:${await closedPort()}`);
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1' }, deps: { redis, logger } });
    try {
      await redis.connect().catch(() => undefined);
      for (let i = 0; i < 3; i += 1) expect((await notifications(t, 'user_rl_c')).statusCode).toBe(200);

      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      // Still ready (the database answers); Redis is reported down, not a reason to leave the load balancer.
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } });
      expect(lines.filter((line) => line.includes('Rate limits are not enforced'))).toHaveLength(1);
      const metrics = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
      expect(metrics).toMatch(/^redis_failures_total 3$/m);
    } finally {
      await t.close();
      redis.disconnect();
    }
  });
});

// Counting in Redis is what lets several instances share one limit; this needs a Redis server.
describe.skipIf(missing(redisServer))('with Redis (REDIS_URL)', () => {
  it('shares the count between two instances', async () => {
    const url = process.env.REDIS_URL as string;
    const clients = [createRedisClient(url), createRedisClient(url)];
    await Promise.all(clients.map((redis) => redis.connect()));
    const apps = await Promise.all(
      clients.map((redis) => createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' }, deps: { redis } })),
    );
    const userId = `user_rl_shared_${Date.now()}_${Math.random().toString(36).slice(2)}`;
    try {
      expect((await notifications(apps[0]!, userId)).statusCode).toBe(200);
      expect((await notifications(apps[1]!, userId)).headers['x-ratelimit-remaining']).toBe('0');
      expectRateLimited(await notifications(apps[0]!, userId));
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      for (const redis of clients) redis.disconnect();
    }
  });
});
