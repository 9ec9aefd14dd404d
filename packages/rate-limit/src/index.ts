export {
  RATE_LIMIT_WINDOW_MS,
  rateLimiting,
  type Incrementable,
  type RateLimitIdentity,
  type RateLimitMetrics,
  type RateLimitOptions,
} from './plugin.js';
export { createRedisClient, logRedisAvailability } from './redis-client.js';
