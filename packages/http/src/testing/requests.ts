import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { edgeInputProbes } from './edge-probes.js';
import type { FuzzRequest } from './fuzz-request.js';
import {
  hostileJson,
  hostileKeys,
  hostileStrings,
  malformedJsonText,
  pollutingObjects,
  unstorableStrings,
} from './hostile-values.js';
import type { RouteUnderTest } from './routes.js';
import { type SchemaLookup, valuesOf } from './schema-values.js';

export interface FuzzRequestOptions {
  /** Resolves `$ref`s in route schemas, e.g. `(id) => app.getSchema(id)`. */
  lookup?: SchemaLookup;
  /** Header sets standing for who calls: real credentials, broken ones, none (`{}`). */
  credentials: fc.Arbitrary<Record<string, string>>;
  /** Headers the service reads besides credentials (X-Organization-Id, Idempotency-Key...), mostly good values. */
  headers?: fc.Arbitrary<Record<string, string>>;
  /**
   * Credentials and headers of the clean requests (a third of them), when they should be good ones only, so
   * those requests reach the handlers; by default the same as the others.
   */
  clean?: { credentials?: fc.Arbitrary<Record<string, string>>; headers?: fc.Arbitrary<Record<string, string>> };
  /** Bodies that make sense together, by route (`POST /v1/things`), beyond what its schema can say. */
  bodyExamples?: Record<string, fc.Arbitrary<unknown>>;
  /**
   * Known good values per path parameter name (ids of seeded rows), mixed with generated ones; `*` for what a
   * trailing wildcard stands for (the path of a stored file).
   */
  pathValues?: Record<string, fc.Arbitrary<string>>;
  /**
   * Known good values of the path parameters of the routes under a URL prefix (`/v1/organizations/:id`), used
   * there instead of `pathValues`: for a parameter name several kinds of objects share (`id`), so that those
   * routes meet their own kind most of the time. The longest matching prefix wins.
   */
  pathValuesUnder?: Record<string, Record<string, fc.Arbitrary<string>>>;
  /** Query strings that make sense, by route (a reference that exists), beyond what its schema can say. */
  queryExamples?: Record<string, fc.Arbitrary<Record<string, string>>>;
}

/** Header values as a client can send them: visible latin-1 text (anything else is refused by Node itself). */
const headerText = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 }),
  fc.constantFrom('', ' ', 'null', '__proto__', '0', '-0', '1e308', 'NaN', 'x'.repeat(8_000), '\u00e9\u00ff'),
);

/** Mostly JSON, as clients send; then every other kind, or none. */
const contentTypes: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      'application/xml',
      '*/*',
      '',
    ),
  },
);

/** Body text: mostly JSON near the schema, then anything. */
function bodies(schema: unknown, lookup: SchemaLookup): fc.Arbitrary<string | undefined> {
  const valid = valuesOf(schema, lookup);
  const oneFieldBroken = fc
    .tuple(valid, hostileKeys, hostileJson)
    .map(([value, key, broken]) => (isObject(value) ? withOwnKey(value, key, broken) : broken));
  const polluted = fc
    .tuple(valid, pollutingObjects)
    .map(([value, pollution]) => (isObject(value) ? { ...value, ...pollution } : pollution));
  return fc.oneof(
    { weight: 4, arbitrary: valid.map(stringify) },
    { weight: 3, arbitrary: oneFieldBroken.map(stringify) },
    { weight: 1, arbitrary: polluted.map(stringify) },
    { weight: 2, arbitrary: hostileJson.map(stringify) },
    { weight: 1, arbitrary: fc.constantFrom(undefined, '', 'null', '""') },
    { weight: 1, arbitrary: malformedJsonText },
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets `key` as an own property even when it is `__proto__`, as JSON.parse would. */
function withOwnKey(value: Record<string, unknown>, key: string, field: unknown): Record<string, unknown> {
  const copy = { ...value };
  Object.defineProperty(copy, key, { value: field, enumerable: true, writable: true, configurable: true });
  return copy;
}

function stringify(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}

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
function paths(
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
function pathsWithNul(
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

/** The JSON pointers of the string values in `value`, at any depth (objects and arrays). */
function stringLeaves(value: unknown, pointer: string[] = []): string[][] {
  if (typeof value === 'string') return [pointer];
  if (Array.isArray(value)) return value.flatMap((item, index) => stringLeaves(item, [...pointer, String(index)]));
  if (isObject(value)) return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...pointer, key]));
  return [];
}

/** `value` with the string at `pointer` replaced by `text`; an object without strings gains a field instead. */
function withUnstorableText(value: unknown, text: string, choice: number): unknown {
  const leaves = stringLeaves(value);
  if (leaves.length === 0) return isObject(value) ? withOwnKey(value, 'note', text) : { note: text };
  const pointer = leaves[choice % leaves.length] ?? [];
  const copy: unknown = structuredClone(value);
  if (pointer.length === 0) return text;
  let parent = copy as Record<string, unknown>;
  for (const key of pointer.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  parent[pointer.at(-1) as string] = text;
  return copy;
}

function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    // Lone surrogates cannot be encoded: send them percent-broken instead.
    return '%ED%A0%80';
  }
}

function queries(route: RouteUnderTest, lookup: SchemaLookup): fc.Arbitrary<string> {
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

function toQuery(value: unknown, pairs: [string, string][]): string {
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

const junkHeaders = fc.array(
  fc.tuple(
    fc.constantFrom(
      'x-forwarded-for',
      'x-request-id',
      'accept',
      'accept-encoding',
      'origin',
      'cookie',
      'x-http-method-override',
      'x-organization-id',
      'idempotency-key',
    ),
    headerText,
  ),
  { maxLength: 2 },
);

function headerSets(options: FuzzRequestOptions, clean: boolean): fc.Arbitrary<Record<string, string>> {
  const contentType = clean ? fc.constant('application/json') : contentTypes;
  const junk = clean ? fc.constant([]) : junkHeaders;
  const who = (clean ? options.clean?.credentials : undefined) ?? options.credentials;
  const others = (clean ? options.clean?.headers : undefined) ?? options.headers ?? fc.constant({});
  return fc.tuple(who, others, contentType, junk).map(([credentials, named, type, extra]) => {
    const headers: Record<string, string> = { ...named };
    for (const [name, value] of extra) headers[name] = value;
    Object.assign(headers, credentials);
    if (type !== undefined) headers['content-type'] = type;
    return headers;
  });
}

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

/**
 * Clean requests with unstorable text (U+0000, lone surrogates) in exactly one place: a string of the body at any
 * depth (or a new field), a query value, a path parameter or a header. Generated for every route, so a route added
 * later is probed without anyone listing its fields.
 */
function unstorableTextProbes(
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
