import type { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from '#test-timing';
import { createRedisClient, logRedisAvailability } from './redis-client.js';

const clients: Redis[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.disconnect();
});

function client(url: string): Redis {
  const redis = createRedisClient(url);
  clients.push(redis);
  return redis;
}

describe('createRedisClient', () => {
  it('fails a command at once while Redis is unreachable, instead of queueing it', async () => {
    const redis = client(`redis://127.0.0.1:${await closedPort()}`);
    await redis.connect().catch(() => undefined);
    // Refused without being queued for a reconnection (which is what would make it slow), whatever the time.
    await expect(redis.incr('anything')).rejects.toThrow(
      "Stream isn't writeable and enableOfflineQueue options is false",
    );
    expect(redis.options).toMatchObject({ maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
  });
});

describe('logRedisAvailability', () => {
  it('logs an outage once when it starts and once when it ends', async () => {
    const lines: { level: number; msg: string }[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    // Never connected (lazy): the test emits the client's events itself.
    const redis = client(`redis://127.0.0.1:${await closedPort()}`);
    logRedisAvailability(redis, logger);

    for (let i = 0; i < 5; i += 1) redis.emit('error', new Error('connect ECONNREFUSED'));
    redis.emit('ready');
    redis.emit('ready');
    redis.emit('error', new Error('connect ECONNREFUSED'));

    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      [40, 'Redis is unreachable; retrying in the background'],
      [30, 'Redis is reachable again'],
      [40, 'Redis is unreachable; retrying in the background'],
    ]);
  });
});
