import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { rateLimited } from '@platform/errors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { redisStore, type StoreOutcomes } from './redis-store.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route needs no credentials. Its requests spend their client IP's budget, like any request without a
     * valid credential, unless the route also says `rateLimit: false` (@fastify/rate-limit's own switch).
     */
    public?: boolean;
  }
}

/** Whose budget a request spends. */
export interface RateLimitIdentity {
  /** The credential's id with its kind, e.g. `apikey:<id>` or `user:<id>`; never a secret. */
  key: string;
  /** This credential's own limit; the plugin's `defaultPerMinute` otherwise. */
  perMinute?: number;
}

export interface Incrementable {
  inc(): void;
}

/** Counters the plugin increments; `app.metrics` from @platform/http fits. */
export interface RateLimitMetrics {
  rateLimitRejections: Incrementable;
  redisFailures: Incrementable;
}

export interface RateLimitOptions {
  /** Requests per minute per credential without an override, and per client IP without a valid credential. */
  defaultPerMinute: number;
  /** Counts in Redis, shared by every instance; without it each instance counts in memory on its own. */
  redis?: Redis;
  /** Prefix of the Redis keys (`<namespace>:<key>`), e.g. `backend-api:rate-limit`. */
  namespace: string;
  /**
   * The authenticated credential of the request, or null when it has none or an invalid one: the request then
   * spends its client IP's budget. Runs after the instance's onRequest hooks, so authentication has run.
   */
  identify(request: FastifyRequest): RateLimitIdentity | null;
  metrics?: RateLimitMetrics;
}

export const RATE_LIMIT_WINDOW_MS = 60_000;

/** Logs the first failure of an outage and the first success after it; counts every failure. */
function storeOutcomes(app: FastifyInstance, metrics: RateLimitMetrics | undefined): StoreOutcomes {
  let failing = false;
  return {
    onFailure(error) {
      metrics?.redisFailures.inc();
      if (failing) return;
      failing = true;
      app.log.warn({ err: error }, 'Rate limits are not enforced: the Redis store fails, so requests are let through');
    },
    onSuccess() {
      if (!failing) return;
      failing = false;
      app.log.info('Rate limits are enforced again: the Redis store answers');
    },
  };
}

/**
 * Limits every request to the routes registered after this plugin (docs/decisions.md#rate-limits): per credential when
 * `identify` finds one, per client IP otherwise, including requests to unknown routes and to public routes
 * (`config.public`: browser pages such as the hosted verification page). A route that must never be limited
 * says `config: { rateLimit: false }` (providers' webhooks, which arrive in bursts from a few addresses).
 * Routes registered before this plugin (createServer's probes, /metrics and the documentation) are not
 * limited either. Every answer of a limited route carries `x-ratelimit-limit`,
 * `x-ratelimit-remaining` and `x-ratelimit-reset`; past the limit it is 429 rate_limited with `Retry-After`.
 * When the Redis store fails, requests are served (fail open), the outage is logged once and each request whose count failed
 * is counted in `metrics.redisFailures`.
 *
 * @fastify/rate-limit adds its check as a route-level onRequest hook, and Fastify runs route-level hooks after
 * the instance's: authentication (an instance hook) has resolved the credential by then, so authentication
 * must not throw in onRequest but remember the failure and throw it later (preParsing), once the request has
 * been counted against its IP.
 */
export const rateLimiting = fp<RateLimitOptions>(
  async (app, options) => {
    const identities = new WeakMap<FastifyRequest, RateLimitIdentity>();

    const identityOf = (request: FastifyRequest): RateLimitIdentity =>
      options.identify(request) ?? { key: `ip:${normalizeIP(request.ip)}` };

    await app.register(rateLimit, {
      global: true,
      hook: 'onRequest',
      timeWindow: RATE_LIMIT_WINDOW_MS,
      keyGenerator: (request) => {
        const identity = identityOf(request);
        identities.set(request, identity);
        return identity.key;
      },
      max: (request) => identities.get(request)?.perMinute ?? options.defaultPerMinute,
      skipOnError: true,
      ...(options.redis === undefined
        ? {}
        : { store: redisStore(options.redis, options.namespace, storeOutcomes(app, options.metrics)) }),
      onExceeded: () => options.metrics?.rateLimitRejections.inc(),
      errorResponseBuilder: (_request, context) => rateLimited(Math.ceil(context.ttl / 1000)),
    });

    // Unknown routes get no route hooks; a scan of made-up URLs still spends the client's IP budget.
    const limitUnknownRoute = app.rateLimit();
    // A callback hook: it runs on every request, and an async one would cost each a promise.
    app.addHook('onRequest', function limitUnmatched(request, reply, done) {
      if (!request.is404) {
        done();
        return;
      }
      limitUnknownRoute.call(this, request, reply).then(() => done(), done);
    });
  },
  { name: '@platform/rate-limit', fastify: '5.x' },
);
