import fc from 'fast-check';
import { hostileStrings } from './hostile-values.js';
import type { FuzzRequestOptions } from './request-options.js';
import type { RouteUnderTest } from './routes.js';
import { type SchemaLookup, valuesOf } from './schema-values.js';

// Request paths: a route's parameters filled with known ids, schema values or hostile text.

/** A value for path parameter `name`: mostly a known one in clean requests (to reach the handler), anything otherwise. */
function pathValue(
  route: RouteUnderTest,
  name: string,
  options: FuzzRequestOptions,
  lookup: SchemaLookup,
  clean: boolean,
): fc.Arbitrary<string> {
  const properties = (route.schema.params as { properties?: Record<string, unknown> } | undefined)?.properties;
  const fromSchema = valuesOf(properties?.[name] ?? { type: 'string' }, lookup).map((value) => String(value ?? ''));
  const known = knownPathValues(route.url, options)?.[name] ?? options.pathValues?.[name];
  if (clean)
    return known === undefined
      ? fromSchema
      : fc.oneof({ weight: 4, arbitrary: known }, { weight: 1, arbitrary: fromSchema });
  return fc.oneof(
    { weight: 3, arbitrary: fromSchema },
    { weight: known === undefined ? 0 : 3, arbitrary: known ?? fc.constant('') },
    { weight: 2, arbitrary: hostileStrings.filter((text) => text.length < 3_000) },
  );
}

/** The known values of the longest `pathValuesUnder` prefix of `url`, if any. */
function knownPathValues(url: string, options: FuzzRequestOptions): Record<string, fc.Arbitrary<string>> | undefined {
  const prefix = Object.keys(options.pathValuesUnder ?? {})
    .filter((candidate) => url === candidate || url.startsWith(`${candidate}/`))
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? undefined : options.pathValuesUnder?.[prefix];
}

/** Fills `:name` segments and a trailing `*`; values are URL-encoded, except some raw odd paths. */
export function paths(
  route: RouteUnderTest,
  options: FuzzRequestOptions,
  lookup: SchemaLookup,
  clean: boolean,
): fc.Arbitrary<string> {
  const segments = route.url.split('/').map((segment) => {
    if (segment.startsWith(':')) return pathValue(route, segment.slice(1), options, lookup, clean).map(encodeSegment);
    if (segment === '*') {
      const known = options.pathValues?.['*'];
      return fc.oneof(
        {
          weight: 1,
          arbitrary: fc
            .array(hostileStrings.filter((text) => text.length < 200).map(encodeSegment), { maxLength: 4 })
            .map((parts) => parts.join('/')),
        },
        {
          weight: 1,
          arbitrary: fc.constantFrom(
            '..%2f..%2fetc%2fpasswd',
            '../../../etc/passwd',
            'avatars/u/00000000-0000-4000-8000-000000000000.png',
            '%',
            '%zz',
          ),
        },
        { weight: known === undefined ? 0 : clean ? 8 : 1, arbitrary: known ?? fc.constant('') },
      );
    }
    return fc.constant(segment);
  });
  return fc.tuple(...segments).map((parts) => parts.join('/'));
}

/** A clean path whose `probed`-th parameter also carries U+0000 (percent-encoded, as a client would send it). */
export function pathsWithNul(
  route: RouteUnderTest,
  options: FuzzRequestOptions,
  lookup: SchemaLookup,
  probed: number,
): fc.Arbitrary<string> {
  let index = -1;
  const segments = route.url.split('/').map((segment) => {
    if (!segment.startsWith(':')) return fc.constant(segment);
    index += 1;
    const value = pathValue(route, segment.slice(1), options, lookup, true);
    return index === probed ? value.map((text) => `${encodeSegment(text)}%00`) : value.map(encodeSegment);
  });
  return fc.tuple(...segments).map((parts) => parts.join('/'));
}

function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // Lone surrogates cannot be encoded: send them percent-broken instead.
    return '%ED%A0%80';
  }
}
