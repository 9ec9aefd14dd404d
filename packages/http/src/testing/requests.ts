import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { edgeInputProbes } from './edge-probes.js';
import type { FuzzRequest } from './fuzz-request.js';
import { bodies, stringify } from './request-bodies.js';
import { headerSets } from './request-headers.js';
import type { FuzzRequestOptions } from './request-options.js';
import { paths } from './request-paths.js';
import { queries, toQuery } from './request-queries.js';
import type { RouteUnderTest } from './routes.js';
import { valuesOf } from './schema-values.js';
import { unstorableTextProbes } from './unstorable-text-probes.js';

// Fuzzed requests for a route, put together from the paths, queries, headers and bodies the files beside make.

const methodsWithBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Requests for one route: a third are clean (mostly the examples and known ids, else values from its schemas;
 * JSON; the good credentials and headers) so handlers are reached; the rest break any part: body, query, path,
 * headers, content type.
 */
export function requestsFor(route: RouteUnderTest, options: FuzzRequestOptions): fc.Arbitrary<FuzzRequest> {
  const lookup = options.lookup ?? (() => undefined);
  const hasBody = methodsWithBody.has(route.method);
  const example = options.bodyExamples?.[`${route.method} ${route.url}`];
  const fromSchema = valuesOf(route.schema.body, lookup);
  // Mostly the example where there is one: it is there because the schema alone rarely gets past the handler.
  const cleanBody = hasBody
    ? (example === undefined
        ? fromSchema
        : fc.oneof({ weight: 3, arbitrary: example }, { weight: 1, arbitrary: fromSchema })
      ).map(stringify)
    : fc.constant(undefined);
  const anyBody = hasBody ? bodies(route.schema.body, lookup) : fc.constant(undefined);
  const queryExample = options.queryExamples?.[`${route.method} ${route.url}`];
  const fromQuerySchema = valuesOf(route.schema.querystring, lookup);
  const cleanQuery = (queryExample === undefined ? fromQuerySchema : fc.oneof(queryExample, fromQuerySchema)).map(
    (value) => toQuery(value, []),
  );
  const build = ([path, query, headers, payload]: [string, string, Record<string, string>, string | undefined]) => {
    const request: FuzzRequest = {
      route: `${route.method} ${route.url}`,
      method: route.method,
      url: `${path}${query}`,
      headers,
    };
    if (payload !== undefined) request.payload = payload;
    return request;
  };
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc
        .tuple(paths(route, options, lookup, true), cleanQuery, headerSets(options, true), cleanBody)
        .map(build),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(paths(route, options, lookup, false), queries(route, lookup), headerSets(options, false), anyBody)
        .map(build),
    },
    {
      weight: 1,
      arbitrary: unstorableTextProbes(route, options, lookup, {
        cleanQuery,
        cleanBody: hasBody ? (example ?? fromSchema) : undefined,
      }),
    },
    {
      weight: 1,
      arbitrary: edgeInputProbes(route, lookup, {
        path: paths(route, options, lookup, true),
        query: cleanQuery,
        headers: headerSets(options, true),
        body: hasBody ? (example ?? fromSchema) : undefined,
      }),
    },
  );
}

/** Requests for any of `routes`, each route equally likely. */
export function requestsForRoutes(
  routes: readonly RouteUnderTest[],
  options: FuzzRequestOptions,
): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(...routes.map((route) => requestsFor(route, options)));
}

/** The request as `app.inject` takes it. */
export function toInjectOptions(request: FuzzRequest): InjectOptions {
  return {
    method: request.method as InjectOptions['method'],
    url: request.url,
    headers: request.headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  };
}
