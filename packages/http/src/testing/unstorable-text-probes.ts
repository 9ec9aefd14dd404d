import fc from 'fast-check';
import type { FuzzRequest } from './fuzz-request.js';
import { unstorableStrings } from './hostile-values.js';
import { stringify, withUnstorableText } from './request-bodies.js';
import { headerSets } from './request-headers.js';
import type { FuzzRequestOptions } from './request-options.js';
import { paths, pathsWithNul } from './request-paths.js';
import type { RouteUnderTest } from './routes.js';
import type { SchemaLookup } from './schema-values.js';

/**
 * Clean requests with unstorable text (U+0000, lone surrogates) in exactly one place: a string of the body at any
 * depth (or a new field), a query value, a path parameter or a header. Generated for every route, so a route added
 * later is probed without anyone listing its fields.
 */
export function unstorableTextProbes(
  route: RouteUnderTest,
  options: FuzzRequestOptions,
  lookup: SchemaLookup,
  clean: { cleanQuery: fc.Arbitrary<string>; cleanBody: fc.Arbitrary<unknown> | undefined },
): fc.Arbitrary<FuzzRequest> {
  const parameters = route.url.split('/').filter((segment) => segment.startsWith(':')).length;
  const cleanPath = paths(route, options, lookup, true);
  const cleanBodyText = clean.cleanBody === undefined ? fc.constant(undefined) : clean.cleanBody.map(stringify);
  const request = (
    path: string,
    query: string,
    headers: Record<string, string>,
    payload: string | undefined,
  ): FuzzRequest => ({
    route: `${route.method} ${route.url}`,
    method: route.method,
    url: `${path}${query}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
    // A provider's message keeps such text (made storable by its handler), so it is only held to the usual rules.
    ...(route.config['sentByProvider'] === true ? {} : { probe: 'unstorable-text' as const }),
  });
  const places: fc.Arbitrary<FuzzRequest>[] = [
    // A query value (U+0000: percent-encoded UTF-8 has no form for a lone surrogate).
    fc
      .tuple(
        cleanPath,
        clean.cleanQuery,
        fc.constantFrom('%00', 'a%00b'),
        fc.constantFrom('q', 'note'),
        headerSets(options, true),
        cleanBodyText,
      )
      .map(([path, query, value, name, headers, body]) =>
        request(path, `${query === '' ? '?' : `${query}&`}${name}=${value}`, headers, body),
      ),
    // A header the service does not expect (Node refuses U+0000 in headers on a real socket; inject does not).
    fc
      .tuple(cleanPath, clean.cleanQuery, headerSets(options, true), cleanBodyText)
      .map(([path, query, headers, body]) => request(path, query, { ...headers, 'x-note': 'a\u0000b' }, body)),
  ];
  if (parameters > 0) {
    places.push(
      fc
        .integer({ min: 0, max: parameters - 1 })
        .chain((probed) =>
          fc.tuple(
            pathsWithNul(route, options, lookup, probed),
            clean.cleanQuery,
            headerSets(options, true),
            cleanBodyText,
          ),
        )
        .map(([path, query, headers, body]) => request(path, query, headers, body)),
    );
  }
  if (clean.cleanBody !== undefined) {
    places.push(
      fc
        .tuple(cleanPath, clean.cleanQuery, headerSets(options, true), clean.cleanBody, unstorableStrings, fc.nat())
        .map(([path, query, headers, body, text, choice]) =>
          request(path, query, headers, stringify(withUnstorableText(body, text, choice))),
        ),
    );
    // Bodies are where most text arrives: weigh them as much as the other places together.
    return fc.oneof(
      { weight: places.length - 1, arbitrary: places.at(-1) as fc.Arbitrary<FuzzRequest> },
      ...places.slice(0, -1),
    );
  }
  return fc.oneof(...places);
}
