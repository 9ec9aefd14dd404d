import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { authHeader, createTestApp } from '../../test/helpers.js';
import { createRedisClient } from '../redis.js';

async function notifications(t: Awaited<ReturnType<typeof createTestApp>>, userId: string) {
  return t.app.inject({ method: 'GET', url: '/v1/notifications', headers: await authHeader(userId) });
}

describe('per-user rate limit', () => {
  it('answers 429 with the envelope and headers once a user exceeds the limit, per user', async () => {
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' } });
    try {
      const first = await notifications(t, 'user_rl_a');
      expect(first.statusCode).toBe(200);
      expect(first.headers['x-ratelimit-limit']).toBe('2');
      expect(first.headers['x-ratelimit-remaining']).toBe('1');
      expect((await notifications(t, 'user_rl_a')).statusCode).toBe(200);

      const limited = await notifications(t, 'user_rl_a');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ success: false, code: 'rate_limited' });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

      expect((await notifications(t, 'user_rl_b')).statusCode).toBe(200);
      // Probes are never limited.
      for (let i = 0; i < 3; i += 1) expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('lets requests through and reports not ready when Redis is down', async () => {
    // Nothing listens on port 1: every Redis command fails at once.
    const redis = createRedisClient('redis://127.0.0.1:1');
    redis.on('error', () => undefined);
    const t = await createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '1' }, deps: { redis } });
    try {
      await redis.connect().catch(() => undefined);
      expect((await notifications(t, 'user_rl_c')).statusCode).toBe(200);
      expect((await notifications(t, 'user_rl_c')).statusCode).toBe(200);
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json().error).toContain('redis');
    } finally {
      await t.close();
      redis.disconnect();
    }
  });
});

// Counting in Redis is what lets several instances share one limit; this needs a Redis server.
describe.runIf(process.env.REDIS_URL)('with Redis (REDIS_URL)', () => {
  it('shares the count between two instances', async () => {
    const url = process.env.REDIS_URL as string;
    const clients = [new Redis(url), new Redis(url)];
    const apps = await Promise.all(clients.map((redis) => createTestApp({ env: { RATE_LIMIT_PER_MINUTE: '2' }, deps: { redis } })));
    const userId = `user_rl_shared_${Date.now()}`;
    try {
      expect((await notifications(apps[0]!, userId)).statusCode).toBe(200);
      expect((await notifications(apps[1]!, userId)).statusCode).toBe(200);
      expect((await notifications(apps[0]!, userId)).statusCode).toBe(429);
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      clients.forEach((redis) => redis.disconnect());
    }
  });
});
