import { ALLOWED_ANNOTATION } from '@platform/errors';
import { Ajv, type Options as AjvOptions, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { isSingleLineName, SINGLE_LINE_NAME_FORMAT } from './single-line-name.js';
import { readStorableDate, readStorableDateTime } from './storable-time.js';

/** What Fastify passes when it compiles one part of a route's schema. */
type RouteSchemaDefinition = { schema: unknown; httpPart?: string; method?: string; url?: string };
type ValidatorCompiler = (route: RouteSchemaDefinition) => ValidateFunction;
/** Shape of Fastify's `schemaController.compilersFactory.buildValidator` (its published type is not this one). */
export type ValidatorFactory = (externalSchemas: unknown, ajvServerOptions?: unknown) => ValidatorCompiler;

// Query strings and path params only ever arrive as text, so their declared numbers and booleans are
// read from text, in canonical form only (see textConverter). Bodies and headers are taken as sent:
// `"amount": "100"` is rejected rather than silently turned into a number. Ajv itself never coerces.
const textParts = new Set(['querystring', 'params']);

const sharedOptions: AjvOptions = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  addUsedSchema: false,
  coerceTypes: false,
  // Each error carries the schema that failed, which the envelope's message is made from
  // (docs/decisions.md#validation-messages).
  verbose: true,
  // Tolerate OpenAPI's `example` annotation and our `x-allowed` (what a pattern allows, in words); unknown keywords
  // are still schema mistakes.
  keywords: ['example', ALLOWED_ANNOTATION],
  // These only print warnings to the console at compile time.
  strictTypes: false,
  strictTuples: false,
};

/**
 * ajv-formats' formats, with `date-time` and `date` held to what PostgreSQL can be asked about
 * (docs/decisions.md#dates-are-storable) and `single-line-name` (docs/decisions.md#single-line-names): every schema
 * that names one of them gets the same rule.
 */
function addPlatformFormats(ajv: Ajv): void {
  addFormats.default(ajv);
  // ajv-formats' uuid also takes a `urn:uuid:` prefix, which PostgreSQL's uuid refuses (a 500): only the bare form.
  ajv.addFormat('uuid', /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/);
  ajv.addFormat('date-time', { type: 'string', validate: (text) => readStorableDateTime(text) !== undefined });
  ajv.addFormat('date', { type: 'string', validate: (text) => readStorableDate(text) !== undefined });
  ajv.addFormat(SINGLE_LINE_NAME_FORMAT, { type: 'string', validate: isSingleLineName });
}

function buildAjv(externalSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv(sharedOptions);
  addPlatformFormats(ajv);
  for (const schema of Object.values(externalSchemas)) ajv.addSchema(schema as object);
  return ajv;
}

function compileWith(ajv: Ajv, schema: Record<string, unknown>): ValidateFunction {
  // Ajv refuses to compile a second schema with the same $id: reuse the shared one.
  if (typeof schema['$id'] === 'string') {
    const stored = ajv.getSchema(schema['$id']);
    if (stored !== undefined) return stored;
  }
  return ajv.compile(schema);
}

type JsonSchema = Record<string, unknown>;
type Resolve = (ref: string) => JsonSchema | undefined;
type Convert = (value: unknown) => unknown;

// Only the ordinary way of writing a number is read as one: `25`, `-3`, `0.5`. Not `0x19`, `1e1`, ` 25`,
// `025`, `0b11`, `+5`, `.5` or `Infinity`, which Number() (and Ajv's coercion) would all accept.
const canonicalInteger = /^-?(?:0|[1-9][0-9]*)$/;
const plainDecimal = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/;

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const jsonTypeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

/** The JSON types a schema admits, or undefined when it does not say (any value). */
function typesOf(schema: unknown, resolve: Resolve, depth = 0): Set<string> | undefined {
  if (!isSchema(schema) || depth > 16) return undefined;
  if (typeof schema['$ref'] === 'string') return typesOf(resolve(schema['$ref']), resolve, depth + 1);
  const { type } = schema;
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.map(String));
  if ('const' in schema) return new Set([jsonTypeOf(schema['const'])]);
  if (Array.isArray(schema['enum'])) return new Set(schema['enum'].map(jsonTypeOf));
  const branches = schema['anyOf'] ?? schema['oneOf'];
  if (Array.isArray(branches)) {
    const types = new Set<string>();
    for (const branch of branches) {
      const branchTypes = typesOf(branch, resolve, depth + 1);
      if (branchTypes === undefined) return undefined;
      for (const branchType of branchTypes) types.add(branchType);
    }
    return types;
  }
  return undefined;
}

/**
 * How one query or path value is read, decided once per route from its declared schema. A value the
 * declared type may hold as text stays text; otherwise a canonical decimal integer becomes an integer, a
 * plain decimal a number (where numbers are allowed), `true`/`false` a boolean. Anything else stays text,
 * so validation answers 400 "must be a whole number" (or a number, true or false) naming the parameter. A repeated
 * parameter becomes an array, which only an array schema accepts; a single value for an array schema is
 * read as an array of one.
 */
function textConverter(schema: unknown, resolve: Resolve, depth = 0): Convert | undefined {
  const types = typesOf(schema, resolve);
  if (types === undefined || depth > 16) return undefined;
  const target = isSchema(schema) && typeof schema['$ref'] === 'string' ? resolve(schema['$ref']) : schema;
  const items = types.has('array') && isSchema(target) ? textConverter(target['items'], resolve, depth + 1) : undefined;
  const convertItem = items ?? ((value: unknown) => value);
  const readsText = types.has('string');
  const integer = types.has('integer') || types.has('number');
  const number = types.has('number');
  const boolean = types.has('boolean');
  if (readsText && !types.has('array')) return undefined;

  return (value) => {
    if (Array.isArray(value)) return types.has('array') ? value.map(convertItem) : value;
    if (typeof value !== 'string' || readsText) return value;
    if (types.has('array')) return [convertItem(value)];
    if (integer && canonicalInteger.test(value)) {
      const read = Number(value);
      // -0 reads as 0; digits beyond 2^53 would be rounded, so they stay text and are refused.
      if (Number.isSafeInteger(read)) return read === 0 ? 0 : read;
    }
    if (number && plainDecimal.test(value)) return Number(value);
    if (boolean && (value === 'true' || value === 'false')) return value === 'true';
    return value;
  };
}

/** The converters of a query or params object schema's declared properties, by name. */
function convertersOf(schema: unknown, resolve: Resolve): [string, Convert][] {
  const target = isSchema(schema) && typeof schema['$ref'] === 'string' ? resolve(schema['$ref']) : schema;
  if (!isSchema(target) || !isSchema(target['properties'])) return [];
  const converters: [string, Convert][] = [];
  for (const [name, property] of Object.entries(target['properties'])) {
    const convert = textConverter(property, resolve);
    if (convert !== undefined) converters.push([name, convert]);
  }
  return converters;
}

function withTextConversion(validate: ValidateFunction, converters: [string, Convert][]): ValidateFunction {
  if (converters.length === 0) return validate;
  const converting = ((data: unknown) => {
    if (isSchema(data)) {
      for (const [name, convert] of converters) if (Object.hasOwn(data, name)) data[name] = convert(data[name]);
    }
    const valid = validate(data);
    converting.errors = validate.errors;
    return valid;
  }) as ValidateFunction;
  return Object.assign(converting, { schema: validate.schema, schemaEnv: validate.schemaEnv });
}

/**
 * Fastify validator factory: one strict Ajv (no type coercion) for every part; querystring and params
 * values are first read from text by their declared types (textConverter). Built once per set of shared
 * schemas, like Fastify's own.
 */
export function createValidatorFactory(): ValidatorFactory {
  const byExternalSchemas = new Map<string, ValidatorCompiler>();
  return (externalSchemas) => {
    const external = (externalSchemas ?? {}) as Record<string, unknown>;
    const key = JSON.stringify(external);
    const cached = byExternalSchemas.get(key);
    if (cached !== undefined) return cached;

    const ajv = buildAjv(external);
    const resolve: Resolve = (ref) => {
      const found = ajv.getSchema(ref)?.schema;
      return isSchema(found) ? found : undefined;
    };
    const compiler: ValidatorCompiler = ({ schema, httpPart }) => {
      const validate = compileWith(ajv, schema as Record<string, unknown>);
      return httpPart !== undefined && textParts.has(httpPart)
        ? withTextConversion(validate, convertersOf(schema, resolve))
        : validate;
    };
    byExternalSchemas.set(key, compiler);
    return compiler;
  };
}
