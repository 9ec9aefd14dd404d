import fc from 'fast-check';
import { hostileKeys, hostileStrings } from './hostile-values.js';
import { isObject } from './request-bodies.js';
import type { RouteUnderTest } from './routes.js';
import { type SchemaLookup, valuesOf } from './schema-values.js';

// Query strings: a route's schema values with hostile extra pairs, and malformed ones.

export function queries(route: RouteUnderTest, lookup: SchemaLookup): fc.Arbitrary<string> {
  const valid = valuesOf(route.schema.querystring, lookup);
  const extra = fc.array(
    fc.tuple(
      hostileKeys,
      hostileStrings.filter((text) => text.length < 3_000),
    ),
    { maxLength: 3 },
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.tuple(valid, extra).map(([value, pairs]) => toQuery(value, pairs)) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '?', '?&&', '?a=%', '?a=%zz', '?a[b]=1', '?__proto__[x]=1', '?a=1&a=2'),
    },
  );
}

export function toQuery(value: unknown, pairs: [string, string][]): string {
  const search = new URLSearchParams();
  if (isObject(value)) {
    for (const [key, field] of Object.entries(value)) {
      for (const item of Array.isArray(field) ? field : [field])
        search.append(key, typeof item === 'string' ? item : JSON.stringify(item));
    }
  }
  for (const [key, field] of pairs) search.append(key, field);
  const text = safeToString(search);
  return text === '' ? '' : `?${text}`;
}

function safeToString(search: URLSearchParams): string {
  try {
    return search.toString();
  } catch {
    return 'a=%ED%A0%80';
  }
}
