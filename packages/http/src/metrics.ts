import { createHash, timingSafeEqual } from 'node:crypto';
import { unauthorized } from '@platform/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const metricsPath = '/metrics';

type HttpLabel = 'method' | 'route' | 'status_code';

/** The counters of one service instance, exposed as `app.metrics` so any module can count what it does. */
export interface PlatformMetrics {
  /** This instance's metrics (process metrics live in a registry shared by the process). */
  registry: Registry;
  httpRequests: Counter<HttpLabel>;
  httpRequestDuration: Histogram<HttpLabel>;
  /** Requests answered 429 by the rate limiter. */
  rateLimitRejections: Counter;
  /** Answers replayed from a stored idempotent result instead of running the operation again. */
  idempotentReplays: Counter;
  /** Redis commands that failed; the request went on without Redis (e.g. not rate limited). */
  redisFailures: Counter;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: PlatformMetrics;
  }
}

/** The route label of requests no route matched: raw URLs would make one series per URL ever requested. */
export const unmatchedRoute = 'unmatched';

let processRegistry: Registry | undefined;

// CPU, memory, event-loop and GC figures describe the process, not an app: one collector per process, however
// many apps it builds (tests build hundreds; each collector would add its own GC observer).
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/** A fresh set of counters in a registry of its own, so several apps in one process never share or clash. */
export function createMetrics(): PlatformMetrics {
  const registry = new Registry();
  const labelNames: HttpLabel[] = ['method', 'route', 'status_code'];
  return {
    registry,
    httpRequests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames,
      registers: [registry],
    }),
    httpRequestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from receiving a request to sending its answer, in seconds',
      labelNames,
      registers: [registry],
    }),
    rateLimitRejections: new Counter({
      name: 'rate_limit_rejections_total',
      help: 'Requests refused with 429 because their rate limit was exhausted',
      registers: [registry],
    }),
    idempotentReplays: new Counter({
      name: 'idempotent_replays_total',
      help: 'Answers replayed from a stored idempotent result without running the operation again',
      registers: [registry],
    }),
    redisFailures: new Counter({
      name: 'redis_failures_total',
      help: 'Redis commands that failed; the request was served without them',
      registers: [registry],
    }),
  };
}

/**
 * A counter a module keeps in this app's registry, with its own name and labels: created on first use and
 * found again by name after that (so building a module twice in one app shares it). `collect`, when given, runs
 * on every scrape before the counter is read; only the first creation's is kept.
 */
export function moduleCounter<Label extends string>(
  metrics: PlatformMetrics,
  options: { name: string; help: string; labelNames: readonly Label[]; collect?: () => unknown },
): Counter<Label> {
  const existing = metrics.registry.getSingleMetric(options.name);
  if (existing instanceof Counter) return existing as Counter<Label>;
  const { collect } = options;
  return new Counter({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames,
    registers: [metrics.registry],
    // e.g. waiting for a count another metric's collect started, so a failure shows in the same scrape.
    ...(collect === undefined ? {} : { collect: async () => void (await collect()) }),
  });
}

/**
 * A gauge a module keeps in this app's registry, found again by name like `moduleCounter`. `collect` runs on every
 * scrape before the gauge is read (it may be async, e.g. to count rows); only the first creation's `collect` is kept.
 */
export function moduleGauge<Label extends string>(
  metrics: PlatformMetrics,
  options: { name: string; help: string; labelNames: readonly Label[]; collect?: (this: Gauge<Label>) => unknown },
): Gauge<Label> {
  const existing = metrics.registry.getSingleMetric(options.name);
  if (existing instanceof Gauge) return existing as Gauge<Label>;
  const { collect } = options;
  return new Gauge({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames,
    registers: [metrics.registry],
    ...(collect === undefined
      ? {}
      : {
          async collect(this: Gauge<Label>) {
            await collect.call(this);
          },
        }),
  });
}

/** A histogram a module keeps in this app's registry, with its own buckets; found again by name like `moduleCounter`. */
export function moduleHistogram<Label extends string>(
  metrics: PlatformMetrics,
  options: { name: string; help: string; labelNames: readonly Label[]; buckets: readonly number[] },
): Histogram<Label> {
  const existing = metrics.registry.getSingleMetric(options.name);
  if (existing instanceof Histogram) return existing as Histogram<Label>;
  return new Histogram({
    name: options.name,
    help: options.help,
    labelNames: options.labelNames,
    buckets: [...options.buckets],
    registers: [metrics.registry],
  });
}

function routeLabel(request: FastifyRequest): string {
  return request.is404 ? unmatchedRoute : (request.routeOptions.url ?? unmatchedRoute);
}

/** Counts and times every answer by route pattern and status. */
export function recordRequestMetrics(app: FastifyInstance, metrics: PlatformMetrics): void {
  app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const labels = { method: request.method, route: routeLabel(request), status_code: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
}

const sha256 = (value: string) => createHash('sha256').update(value).digest();
const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;

/** Whether the Authorization header carries `token`; compared in constant time. */
function carriesToken(authorization: string | undefined, token: string): boolean {
  const sent = BEARER.exec(authorization ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(sha256(sent), sha256(token));
}

export type MetricsRouteOptions = {
  metrics: PlatformMetrics;
  /** When set, scrapes must send `Authorization: Bearer <token>`. */
  token?: string;
};

/** `GET /metrics`: this app's counters and the process metrics, in Prometheus text format. */
export async function registerMetricsRoute(
  app: FastifyInstance,
  { metrics, token }: MetricsRouteOptions,
): Promise<void> {
  app.get(metricsPath, { schema: { hide: true }, config: { public: true } }, async (request, reply) => {
    if (token !== undefined && !carriesToken(request.headers.authorization, token)) {
      throw unauthorized('A valid metrics token is required', 'Bearer realm="metrics"');
    }
    const scraped = Registry.merge([processMetrics(), metrics.registry]);
    reply.type(scraped.contentType);
    return scraped.metrics();
  });
}
