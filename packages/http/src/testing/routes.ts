import type { FastifyInstance } from 'fastify';
import type { JsonSchema } from './schema-values.js';

/** A route as registered: what a fuzzer needs to build requests for it. */
export interface RouteUnderTest {
  method: string;
  url: string;
  schema: { body?: unknown; querystring?: unknown; params?: unknown; headers?: unknown };
  config: Record<string, unknown>;
}

/**
 * Records every route `app` registers from now on (call before `ready()`), one entry per method. HEAD
 * routes Fastify derives from GET routes are left out: they run the same handler and answer no body.
 */
export function recordRoutes(app: FastifyInstance): RouteUnderTest[] {
  const routes: RouteUnderTest[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as JsonSchema;
    for (const method of methods) {
      if (method === 'HEAD') continue;
      routes.push({
        method,
        url: route.url,
        schema: { body: schema['body'], querystring: schema['querystring'], params: schema['params'], headers: schema['headers'] },
        config: (route.config ?? {}) as Record<string, unknown>,
      });
    }
  });
  return routes;
}
