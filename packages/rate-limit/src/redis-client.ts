import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * A Redis client that fails fast instead of queueing or retrying commands while Redis is away, so an outage
 * slows no request down: each command fails at once (or after 1 s when Redis hangs) and the rate limiter lets
 * the request through. It connects on `connect()` or on its first command, and reconnects on its own.
 */
export function createRedisClient(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
    // Every request costs one command; concurrent requests' commands go out in one write instead of one each.
    enableAutoPipelining: true,
  });
  // Without a listener ioredis prints every failed reconnect attempt; logRedisAvailability reports outages once.
  redis.on('error', () => undefined);
  return redis;
}

/** Logs an outage once when it starts and once when Redis is back, however many reconnect attempts fail between. */
export function logRedisAvailability(redis: Redis, logger: FastifyBaseLogger): void {
  let reachable = true;
  redis.on('error', (err: Error) => {
    if (!reachable) return;
    reachable = false;
    logger.warn({ err }, 'Redis is unreachable; retrying in the background');
  });
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    logger.info('Redis is reachable again');
  });
}
