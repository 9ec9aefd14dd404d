export {
  type Incrementable,
  RATE_LIMIT_WINDOW_MS,
  type RateLimitIdentity,
  type RateLimitMetrics,
  type RateLimitOptions,
  rateLimiting,
} from './plugin.js';
export { createRedisClient, logRedisAvailability } from './redis-client.js';
