import type { FastifyInstance } from 'fastify';
import type { RegisteredRoute } from '../route-inventory.js';

/** A route as registered: what a fuzzer needs to build requests for it. */
export type RouteUnderTest = Pick<RegisteredRoute, 'method' | 'url' | 'schema' | 'config'>;

/**
 * Every route of an app built with createServer (read after `ready()`), one entry per method. HEAD routes
 * Fastify derives from GET routes are left out: they run the same handler and answer no body.
 */
export function routesUnderTest(app: FastifyInstance): RouteUnderTest[] {
  return app.registeredRoutes
    .filter((route) => route.method !== 'HEAD')
    .map(({ method, url, schema, config }) => ({ method, url, schema, config }));
}
