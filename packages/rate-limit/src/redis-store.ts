import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

// One round trip: count the request and read how long the window has left. A counter without an expiry (a
// window that never started, or a key someone persisted) starts a fresh window, so no key can block forever.
const INCREMENT_SCRIPT = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('SET', KEYS[1], 1, 'PX', ARGV[1])
  current = 1
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

const COMMAND = 'platformRateLimitIncrement';

type IncrementCommand = (key: string, windowMs: number) => Promise<[number, number]>;

function incrementCommand(redis: Redis): IncrementCommand {
  const commands = redis as unknown as Record<string, IncrementCommand | undefined>;
  if (commands[COMMAND] === undefined) redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
  const command = commands[COMMAND];
  if (command === undefined) throw new Error(`ioredis did not define ${COMMAND}`);
  return command.bind(redis);
}

export interface StoreOutcomes {
  /** Every failed call; the limiter then lets the request through. */
  onFailure(error: Error): void;
  onSuccess(): void;
}

/**
 * A @fastify/rate-limit store that counts in Redis under `<namespace>:<key>`, so every instance sharing the Redis
 * shares each budget, and reports each call's outcome (the library itself swallows store errors silently).
 */
export function redisStore(redis: Redis, namespace: string, outcomes: StoreOutcomes): FastifyRateLimitStoreCtor {
  const increment = incrementCommand(redis);

  class RedisCounterStore implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      increment(`${namespace}:${key}`, timeWindow).then(
        ([current, ttl]) => {
          outcomes.onSuccess();
          callback(null, { current, ttl });
        },
        (error: Error) => {
          outcomes.onFailure(error);
          callback(error);
        },
      );
    }

    // Routes with a rateLimit config of their own still spend the credential's one budget.
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return RedisCounterStore;
}
