import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * A Redis client that fails fast instead of queueing commands while disconnected, so a Redis outage slows no
 * request down (rate limiting fails open, /readyz reports it). It does not connect until `connect()`.
 */
export function createRedisClient(url: string): Redis {
  return new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
}

/** Logs an outage once when it starts and once when Redis is back (ioredis reconnects on its own). */
export function logRedisAvailability(redis: Redis, logger: FastifyBaseLogger): void {
  let reachable = true;
  redis.on('error', (err: Error) => {
    if (!reachable) return;
    reachable = false;
    logger.warn({ err }, 'Redis is unreachable; rate limits are not enforced until it is back');
  });
  redis.on('ready', () => {
    if (reachable) return;
    reachable = true;
    logger.info('Redis is reachable again');
  });
}
