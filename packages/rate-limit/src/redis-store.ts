import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';

// One round trip: count the requests and read how long the window has left. A counter without an expiry (a
// window that never started, or a key someone persisted) starts a fresh window, so no key can block forever.
const INCREMENT_SCRIPT = `
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[1])
  current = tonumber(ARGV[2])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

const COMMAND = 'platformRateLimitIncrementBy';

type IncrementCommand = (key: string, windowMs: number, requests: number) => Promise<[number, number]>;

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

type Counted = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The requests of one budget counted in this turn of the event loop, waiting to be sent as one increment. */
interface Batch {
  windowMs: number;
  callbacks: Counted[];
}

/**
 * A @fastify/rate-limit store that counts in Redis under `<namespace>:<key>`, so every instance sharing the Redis
 * shares each budget, and reports each request's outcome (the library itself swallows store errors silently).
 *
 * The requests of one budget that arrive in the same turn of the event loop are counted by one `INCRBY n`
 * (docs/decisions.md#rate-limit-counts-sent-once-per-turn): the first waits, with the others, until the turn's
 * I/O has been read (`setImmediate`), and each then gets its own count, `total - n + 1` to `total`, as n `INCR`s
 * in a row would have given them. The count stays exact and shared; only the calls to Redis are fewer.
 */
export function redisStore(redis: Redis, namespace: string, outcomes: StoreOutcomes): FastifyRateLimitStoreCtor {
  const increment = incrementCommand(redis);
  const batches = new Map<string, Batch>();

  function send(key: string, batch: Batch): void {
    const requests = batch.callbacks.length;
    increment(key, batch.windowMs, requests).then(
      ([total, ttl]) => {
        outcomes.onSuccess();
        const first = total - requests + 1;
        for (const [index, callback] of batch.callbacks.entries()) callback(null, { current: first + index, ttl });
      },
      (error: Error) => {
        for (const callback of batch.callbacks) {
          outcomes.onFailure(error);
          callback(error);
        }
      },
    );
  }

  class RedisCounterStore implements FastifyRateLimitStore {
    incr(key: string, callback: Counted, timeWindow: number) {
      // Keyed by the window too: a route with a window of its own must not be counted in another's increment.
      const redisKey = `${namespace}:${key}`;
      const batchKey = `${timeWindow}|${redisKey}`;
      const waiting = batches.get(batchKey);
      if (waiting !== undefined) {
        waiting.callbacks.push(callback);
        return;
      }
      const batch: Batch = { windowMs: timeWindow, callbacks: [callback] };
      batches.set(batchKey, batch);
      setImmediate(() => {
        batches.delete(batchKey);
        send(redisKey, batch);
      });
    }

    // Routes with a rateLimit config of their own still spend the credential's one budget.
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return RedisCounterStore;
}
