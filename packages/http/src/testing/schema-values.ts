import fc from 'fast-check';

/** A JSON schema as routes declare them (TypeBox output or plain objects). */
export type JsonSchema = Record<string, unknown>;

/** Finds a schema registered under `$id` (e.g. `app.getSchema`), for `$ref`s. */
export type SchemaLookup = (id: string) => JsonSchema | undefined;

const MAX_DEPTH = 4;

/**
 * Values that satisfy `schema` as far as its common keywords go (type, enum, const, anyOf, properties,
 * required, items, min/max, formats): requests that look valid, so handlers past validation are reached.
 * Keywords it does not understand are ignored, so some values still fail validation, which is fine here.
 */
export function valuesOf(schema: unknown, lookup: SchemaLookup = () => undefined, depth = 0): fc.Arbitrary<unknown> {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return fc.constant(undefined);
  const s = schema as JsonSchema;
  if (typeof s['$ref'] === 'string') {
    const target = lookup(s['$ref'].replace(/#.*$/, ''));
    return target === undefined ? fc.constant(undefined) : valuesOf(target, lookup, depth + 1);
  }
  if ('const' in s) return fc.constant(s['const']);
  const examples = [
    ...(Array.isArray(s['examples']) ? (s['examples'] as unknown[]) : []),
    ...('default' in s ? [s['default']] : []),
  ];
  if (examples.length > 0) {
    const { examples: _examples, default: _default, ...rest } = s;
    return fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...examples) },
      { weight: 1, arbitrary: valuesOf(rest, lookup, depth) },
    );
  }
  if (Array.isArray(s['enum'])) return fc.constantFrom(...(s['enum'] as unknown[]));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = s[key];
    if (Array.isArray(options) && options.length > 0)
      return fc.oneof(...options.map((option) => valuesOf(option, lookup, depth + 1)));
  }
  if (Array.isArray(s['allOf'])) return valuesOf(Object.assign({}, ...(s['allOf'] as JsonSchema[])), lookup, depth + 1);
  const type = Array.isArray(s['type']) ? s['type'][0] : s['type'];
  switch (type) {
    case 'string':
      return stringValues(s);
    case 'integer':
      return fc.integer({ min: numberOr(s['minimum'], -1000), max: numberOr(s['maximum'], 100_000) });
    case 'number':
      return fc.double({
        min: numberOr(s['minimum'], -1000),
        max: numberOr(s['maximum'], 100_000),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valuesOf(s['items'], lookup, depth + 1), { maxLength: Math.min(numberOr(s['maxItems'], 3), 3) });
    default:
      return objectValues(s, lookup, depth);
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function objectValues(s: JsonSchema, lookup: SchemaLookup, depth: number): fc.Arbitrary<unknown> {
  const properties = (s['properties'] ?? {}) as Record<string, unknown>;
  const names = Object.keys(properties);
  if (names.length === 0) return s['type'] === 'object' ? fc.constant({}) : fc.constant(undefined);
  const required = new Set(Array.isArray(s['required']) ? (s['required'] as string[]) : []);
  // Every required key; each optional one now and then, since every extra field is one more way to be refused.
  const absent = Symbol('absent');
  const entries = names.map((name) => {
    const value = valuesOf(properties[name], lookup, depth + 1);
    const field = required.has(name)
      ? value
      : fc.oneof({ weight: 2, arbitrary: fc.constant<unknown>(absent) }, { weight: 1, arbitrary: value });
    return field.map((item) => [name, item] as const);
  });
  return fc
    .tuple(...entries)
    .map((pairs) => Object.fromEntries(pairs.filter(([, item]) => item !== absent && item !== undefined)));
}

const formatValues: Record<string, fc.Arbitrary<string>> = {
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  uri: fc.webUrl(),
  url: fc.webUrl(),
  'date-time': fc
    .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString()),
  date: fc
    .date({ min: new Date('1900-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10)),
};

function stringValues(s: JsonSchema): fc.Arbitrary<string> {
  const format = typeof s['format'] === 'string' ? formatValues[s['format']] : undefined;
  if (format !== undefined) return format;
  const minLength = numberOr(s['minLength'], 0);
  const maxLength = Math.max(minLength, Math.min(numberOr(s['maxLength'], 40), 200));
  if (typeof s['pattern'] === 'string') {
    try {
      return fc
        .stringMatching(new RegExp(s['pattern']))
        .filter((value) => value.length >= minLength && value.length <= maxLength);
    } catch {
      // A pattern JavaScript cannot read: plain strings below.
    }
  }
  return fc.string({ minLength, maxLength });
}
