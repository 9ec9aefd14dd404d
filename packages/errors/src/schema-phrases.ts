// What a schema allows, said as a person would (docs/decisions.md#validation-messages): "a UUID", "monthly or
// yearly", "a whole number from 1 to 100". Built from the schema's own keywords; a pattern is never quoted, it is
// said by the schema's `x-allowed` annotation or not at all.

type Schema = Record<string, unknown>;

/** The annotation a schema carries to say in words what its pattern (or anything else) allows: "a KRA PIN (A123456789B)". */
export const ALLOWED_ANNOTATION = 'x-allowed';

/**
 * The formats the services declare, as noun phrases. The date range is the one PostgreSQL and JavaScript share
 * (docs/decisions.md#dates-are-storable); `single-line-name` is docs/decisions.md#single-line-names.
 */
export const formatPhrases: Readonly<Record<string, string>> = {
  uuid: 'a UUID',
  'date-time':
    'a date-time with a time zone (2026-03-01T09:00:00Z or 2026-03-01T12:00:00+03:00), ' +
    'from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z',
  date: 'a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31',
  email: 'an email address',
  uri: 'an absolute URL',
  url: 'an absolute URL',
  'single-line-name':
    'one line of text, without control characters, line or paragraph separators (U+2028, U+2029) or ' +
    'bidirectional controls (U+202A-U+202E, U+2066-U+2069)',
};

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** A value as the client writes it: text as is, anything else as JSON. */
export function quoteValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** "a", "a or b", "a, b or c". */
export function listOf(values: readonly string[]): string {
  if (values.length <= 1) return values[0] ?? '';
  return `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** "1-100 characters", "at most 64 characters", "at least 8 characters", or undefined without bounds. */
export function lengthPhrase(schema: Schema): string | undefined {
  const min = numberOf(schema['minLength']);
  const max = numberOf(schema['maxLength']);
  if (min !== undefined && max !== undefined) return min === max ? `${min} characters` : `${min}-${max} characters`;
  if (max !== undefined) return `at most ${max} characters`;
  if (min !== undefined && min > 1) return `at least ${min} characters`;
  return undefined;
}

// Bounds as people read them: 1,000,000 rather than 1000000.
const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });
const boundOf = (value: unknown): string | undefined => (typeof value === 'number' ? grouped.format(value) : undefined);

/** "from 1 to 100", "at least 1", "below 10", or undefined without bounds. */
export function rangePhrase(schema: Schema): string | undefined {
  const min = boundOf(schema['minimum']);
  // A maximum that only keeps a number exact (2^53 - 1) is no limit a person needs told.
  const max = schema['maximum'] === Number.MAX_SAFE_INTEGER ? undefined : boundOf(schema['maximum']);
  const above = boundOf(schema['exclusiveMinimum']);
  const below = boundOf(schema['exclusiveMaximum']);
  if (min !== undefined && max !== undefined) return `from ${min} to ${max}`;
  const lower = min !== undefined ? `at least ${min}` : above !== undefined ? `above ${above}` : undefined;
  const upper = max !== undefined ? `at most ${max}` : below !== undefined ? `below ${below}` : undefined;
  if (lower !== undefined && upper !== undefined) return `${lower} and ${upper}`;
  return lower ?? upper;
}

const typeNouns: Readonly<Record<string, string>> = {
  string: 'text',
  integer: 'a whole number',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/** Whether a phrase is only a JSON type's ("text", "an object"), which says little of what is allowed. */
export function isBareType(phrase: string): boolean {
  return Object.values(typeNouns).includes(phrase);
}

/** What JSON type `type` is, as a noun phrase ("a whole number"). */
export function typeNoun(type: unknown): string {
  if (Array.isArray(type)) return listOf(type.map(typeNoun));
  return typeof type === 'string' ? (typeNouns[type] ?? type) : 'a value';
}

function stringPhrase(schema: Schema): string | undefined {
  const format = typeof schema['format'] === 'string' ? formatPhrases[schema['format']] : undefined;
  if (format !== undefined) return format;
  if (typeof schema['pattern'] === 'string') return undefined;
  const length = lengthPhrase(schema);
  return length === undefined ? 'text' : `text of ${length}`;
}

/**
 * What `schema` allows, as a noun phrase, or undefined when the schema cannot say it in words (a pattern without
 * its `x-allowed` annotation, a `$ref`, a shape too rich for one phrase).
 */
export function allowedBy(schema: unknown, depth = 0): string | undefined {
  if (!isSchema(schema) || depth > 8) return undefined;
  const annotated = schema[ALLOWED_ANNOTATION];
  if (typeof annotated === 'string') return annotated;
  if ('const' in schema) return quoteValue(schema['const']);
  if (Array.isArray(schema['enum'])) return listOf(schema['enum'].map(quoteValue));
  const branches = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(branches)) {
    const literals = branches.every(
      (branch) => isSchema(branch) && ('const' in branch || Array.isArray(branch['enum'])),
    );
    if (literals) {
      return listOf(
        branches.flatMap((branch: Schema) =>
          'const' in branch ? [quoteValue(branch['const'])] : (branch['enum'] as unknown[]).map(quoteValue),
        ),
      );
    }
    const phrases = branches.map((branch) => allowedBy(branch, depth + 1));
    return phrases.every((phrase) => phrase !== undefined) ? listOf(phrases as string[]) : undefined;
  }
  if (typeof schema['$ref'] === 'string') return undefined;
  if (Array.isArray(schema['type'])) {
    const phrases = schema['type'].map((type) => allowedBy({ ...schema, type }, depth + 1));
    return phrases.every((phrase) => phrase !== undefined) ? listOf(phrases as string[]) : undefined;
  }
  switch (schema['type']) {
    case 'string':
      return stringPhrase(schema);
    case 'integer':
    case 'number': {
      const range = rangePhrase(schema);
      if (range === undefined) return typeNoun(schema['type']);
      return `${typeNoun(schema['type'])} ${range.startsWith('at ') ? 'of ' : ''}${range}`;
    }
    case undefined:
      return undefined;
    default:
      return typeNoun(schema['type']);
  }
}
