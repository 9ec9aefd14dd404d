import fc from 'fast-check';
import type { FuzzProbe, FuzzRequest } from './fuzz-request.js';
import { extremeDates, idempotencyKeyHeaderSets, notOnOneLineStrings, notUtf8Bytes } from './input-edges.js';
import type { RouteUnderTest } from './routes.js';
import type { SchemaLookup } from './schema-values.js';

type Schema = Record<string, unknown>;

/** The clean parts of a route's requests, as requestsFor makes them: what each probe changes one thing in. */
export interface CleanParts {
  path: fc.Arbitrary<string>;
  /** `?a=1&b=2`, or ''. */
  query: fc.Arbitrary<string>;
  headers: fc.Arbitrary<Record<string, string>>;
  /** The parsed body, for routes that take one. */
  body: fc.Arbitrary<unknown> | undefined;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function resolved(schema: unknown, lookup: SchemaLookup): Schema | undefined {
  if (isSchema(schema) && typeof schema['$ref'] === 'string') return lookup(schema['$ref'].replace(/#.*$/, ''));
  return isSchema(schema) ? schema : undefined;
}

/** Whether a field takes dates: a date or date-time format, or examples that are all dates (`from` of a list). */
function takesDates(schema: Schema): boolean {
  if (schema['format'] === 'date' || schema['format'] === 'date-time') return true;
  const examples = schema['examples'];
  return Array.isArray(examples) && examples.length > 0 && examples.every((e) => /^\d{4}-\d{2}-\d{2}/.test(String(e)));
}

/** The string fields of an object schema, at any depth, by their path of property names, with their schema. */
function stringFields(schema: unknown, lookup: SchemaLookup, at: string[] = [], depth = 0): [string[], Schema][] {
  const object = resolved(schema, lookup);
  if (object === undefined || depth > 4 || !isSchema(object['properties'])) return [];
  const fields: [string[], Schema][] = [];
  for (const [name, raw] of Object.entries(object['properties'])) {
    const property = resolved(raw, lookup);
    if (property === undefined) continue;
    const branches = [property, ...[property['anyOf'], property['oneOf']].flat().filter(isSchema)];
    const text = branches.find((branch) => branch['type'] === 'string' || [branch['type']].flat().includes('string'));
    if (text !== undefined) fields.push([[...at, name], { ...property, ...text }]);
    fields.push(...stringFields(property, lookup, [...at, name], depth + 1));
  }
  return fields;
}

/** `body` with `value` at `path`, objects made on the way; a body that is no object becomes one. */
function withField(body: unknown, path: string[], value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = isSchema(body) ? structuredClone(body) : {};
  let parent = copy;
  for (const key of path.slice(0, -1)) {
    if (!isSchema(parent[key])) parent[key] = {};
    parent = parent[key] as Record<string, unknown>;
  }
  parent[path.at(-1) as string] = value;
  return copy;
}

const MARK = 'ZZ-NOT-UTF8-ZZ';

/** The body as JSON bytes with bytes that are not UTF-8 in place of the mark (placed in one string field). */
function withBytesAtMark(json: string, bytes: Buffer): Buffer {
  const [before = '', after = ''] = json.split(MARK);
  return Buffer.concat([Buffer.from(before, 'utf8'), bytes, Buffer.from(after, 'utf8')]);
}

function withQuery(query: string, name: string, value: string): string {
  const search = new URLSearchParams(query.replace(/^\?/, ''));
  search.set(name, value);
  return `?${search.toString()}`;
}

/**
 * Clean requests with one input at the edge of what the services take: a JSON body whose bytes are not UTF-8, a
 * single-line name with a bidirectional control or a line separator, an extreme date in a date field or a query
 * parameter, the idempotency key under both header names. Where the rules say the request must be refused it is
 * marked (`probe`), so that it must never succeed; edges that may be taken (a storable date, two equal keys) are only
 * held to the usual rules: no 5xx, the envelope, nothing changed by a refusal.
 */
export function edgeInputProbes(
  route: RouteUnderTest,
  lookup: SchemaLookup,
  clean: CleanParts,
): fc.Arbitrary<FuzzRequest> {
  const authentic = route.config['sentByProvider'] === true;
  const request = (
    path: string,
    query: string,
    headers: Record<string, string>,
    payload: string | Buffer | undefined,
    probe: FuzzProbe | undefined,
  ): FuzzRequest => ({
    route: `${route.method} ${route.url}`,
    method: route.method,
    url: `${path}${query}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
    // A provider's message is authentic and kept as it came: only the usual rules hold for it.
    ...(probe === undefined || authentic ? {} : { probe }),
  });
  const bodyFields = stringFields(route.schema.body, lookup);
  const queryFields = stringFields(route.schema.querystring, lookup);
  const places: fc.Arbitrary<FuzzRequest>[] = [];
  const cleanBody = clean.body ?? fc.constant(undefined);
  const json = (body: unknown) => (body === undefined ? undefined : JSON.stringify(body));

  if (clean.body !== undefined) {
    // Bytes that are not UTF-8 in a string field (or a field of its own): never read as U+FFFD.
    const fields = bodyFields.length > 0 ? bodyFields.map(([path]) => path) : [['note']];
    places.push(
      fc
        .tuple(
          clean.path,
          clean.query,
          clean.headers,
          cleanBody,
          fc.constantFrom(...fields),
          fc.constantFrom(...notUtf8Bytes),
        )
        .map(([path, query, headers, body, field, bytes]) =>
          request(
            path,
            query,
            headers,
            withBytesAtMark(JSON.stringify(withField(body, field, MARK)), bytes),
            'not-utf8',
          ),
        ),
    );
    // A name with a bidirectional control or a line separator: refused in a single-line name, any text elsewhere.
    const names = bodyFields.filter(([, schema]) => schema['format'] === 'single-line-name').map(([path]) => path);
    const texts = bodyFields.map(([path]) => path);
    if (texts.length > 0) {
      places.push(
        fc
          .tuple(clean.path, clean.query, clean.headers, cleanBody, fc.constantFrom(...texts), notOnOneLineStrings)
          .map(([path, query, headers, body, field, text]) => {
            const named = names.some((name) => name.join('/') === field.join('/'));
            return request(
              path,
              query,
              headers,
              json(withField(body, field, text)),
              named ? 'not-one-line' : undefined,
            );
          }),
      );
    }
    const bodyDates = bodyFields.filter(([, schema]) => takesDates(schema)).map(([path]) => path);
    if (bodyDates.length > 0) {
      places.push(
        fc
          .tuple(clean.path, clean.query, clean.headers, cleanBody, fc.constantFrom(...bodyDates), extremeDates)
          .map(([path, query, headers, body, field, date]) =>
            request(
              path,
              query,
              headers,
              json(withField(body, field, date.text)),
              date.storable ? undefined : 'unstorable-date',
            ),
          ),
      );
    }
  }

  // An extreme date in a query parameter: one that takes dates (refused when unstorable), or any other.
  const datedQuery = queryFields.filter(([, schema]) => takesDates(schema)).map(([path]) => path[0] as string);
  const anyQuery = queryFields.map(([path]) => path[0] as string);
  const dateParameters = datedQuery.length > 0 ? datedQuery : anyQuery.length > 0 ? anyQuery : ['from'];
  places.push(
    fc
      .tuple(clean.path, clean.query, clean.headers, cleanBody, fc.constantFrom(...dateParameters), extremeDates)
      .map(([path, query, headers, body, name, date]) =>
        request(
          path,
          withQuery(query, name, date.text),
          headers,
          json(body),
          datedQuery.includes(name) && !date.storable ? 'unstorable-date' : undefined,
        ),
      ),
  );

  // The key under either name or both; two different keys on an idempotent route are refused.
  const idempotent = route.config['idempotency'] === 'transaction' || route.config['idempotency'] === 'response';
  if (route.method !== 'GET') {
    places.push(
      fc
        .tuple(clean.path, clean.query, clean.headers, cleanBody, idempotencyKeyHeaderSets)
        .map(([path, query, headers, body, keys]) => {
          const bare = Object.fromEntries(
            Object.entries(headers).filter(([name]) => name !== 'x-idempotency-key' && name !== 'idempotency-key'),
          );
          const probe = idempotent && keys.differ ? 'two-idempotency-keys' : undefined;
          return request(path, query, { ...bare, ...keys.headers }, json(body), probe);
        }),
    );
  }
  return fc.oneof(...places);
}
