import rateLimit from '@fastify/rate-limit';
import { rateLimited } from '@platform/errors';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { AuthenticatedUser } from '../auth/token-verifier.js';

export interface RateLimitingOptions {
  /** Requests per minute per user (per client IP on public routes). */
  perMinute: number;
  /** Shared counters across instances; without it each instance counts on its own. */
  redis?: Redis;
}

/**
 * Per-user rate limit (DECISIONS 7). Applies to routes registered after it, so health and docs routes added
 * by createServer are never limited. When Redis fails the request is let through (fail open).
 */
export const rateLimiting = fp<RateLimitingOptions>(
  async (app, { perMinute, redis }) => {
    await app.register(rateLimit, {
      max: perMinute,
      timeWindow: 60_000,
      // Runs after the authentication hook, which has set the user on protected routes.
      keyGenerator: (request) => {
        const user = request.user as AuthenticatedUser | null;
        return user === null ? `ip:${request.ip}` : `user:${user.id}`;
      },
      skipOnError: true,
      ...(redis === undefined ? {} : { redis, nameSpace: 'main-api:rate-limit:' }),
      errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000)),
    });
  },
  { name: 'rate-limiting', dependencies: ['authentication'], fastify: '5.x' },
);
