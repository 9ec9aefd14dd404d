import type { FastifyInstance, RouteOptions } from 'fastify';

/** One registered method and path, as Fastify routes it (`/v1/things/:id`). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** Left out of /openapi.json on purpose (`schema.hide`). */
  hidden: boolean;
  /** The route's input schemas, as declared. */
  schema: { body?: unknown; querystring?: unknown; params?: unknown; headers?: unknown };
  config: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, as registered: for inventory checks against the OpenAPI document. */
    registeredRoutes: readonly RegisteredRoute[];
  }
}

/** Records every route the app registers, including the HEAD routes Fastify adds for GETs, in `app.registeredRoutes`. */
export function recordRouteInventory(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate('registeredRoutes', routes);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const schema = (route.schema ?? {}) as Record<string, unknown>;
    for (const method of methods) {
      routes.push({
        method,
        url: route.url,
        hidden: schema['hide'] === true,
        schema: {
          body: schema['body'],
          querystring: schema['querystring'],
          params: schema['params'],
          headers: schema['headers'],
        },
        config: (route.config ?? {}) as Record<string, unknown>,
      });
    }
  });
}

/** `/v1/things/:id` as @fastify/swagger writes it in OpenAPI: `/v1/things/{id}`; a wildcard `*` is `{*}`. */
export function openApiPathOf(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}').replace(/\*$/, '{*}');
}

const DOCUMENTED_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS'];

export interface RouteInventoryComparison {
  /** Served but not in /openapi.json, as `METHOD /path` (HEAD routes and /docs assets left aside). */
  notDocumented: string[];
  /** In /openapi.json but not served. */
  notServed: string[];
}

/** Compares the routes `app` serves with the operations its /openapi.json documents. */
export async function compareRoutesWithOpenApi(app: FastifyInstance): Promise<RouteInventoryComparison> {
  const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  const documented = new Set(
    Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations)
        .map((method) => method.toUpperCase())
        .filter((method) => DOCUMENTED_METHODS.includes(method))
        .map((method) => `${method} ${path}`),
    ),
  );
  const served = app.registeredRoutes.filter((route) => route.method !== 'HEAD' && !route.url.startsWith('/docs'));
  const servedPaths = new Set(served.map((route) => `${route.method} ${openApiPathOf(route.url)}`));
  return {
    notDocumented: served
      .filter((route) => !documented.has(`${route.method} ${openApiPathOf(route.url)}`))
      .map((route) => `${route.method} ${route.url}`),
    notServed: [...documented].filter((operation) => !servedPaths.has(operation)),
  };
}
