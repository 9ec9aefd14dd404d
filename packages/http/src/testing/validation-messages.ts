import { summarizeValidation, type ValidationDetail } from '@platform/errors';
import type { FastifyInstance } from 'fastify';
import { createValidatorFactory } from '../validator-compiler.js';
import { type RouteUnderTest, routesUnderTest } from './routes.js';

type Schema = Record<string, unknown>;

/** What one request breaking one rule of a route's schema is told, as the envelope would say it. */
export interface ViolationMessage {
  /** `POST /v1/things`. */
  route: string;
  /** `body`, `querystring`, `params` or `headers`. */
  part: string;
  /** The rule broken and where: `/metadata/plan: enum`. */
  violation: string;
  /** The envelope's `error`. */
  error: string;
  details: ValidationDetail[];
  /** The patterns of the schema part, none of which a message may quote. */
  patterns: string[];
}

/**
 * The validator's own phrases (Ajv's English), which no message may show: a person reads "id must be a UUID", not
 * `params/id must match format "uuid"` (docs/decisions.md#validation-messages).
 */
export const validatorPhrasing =
  /must match (?:pattern|format)|must have required property|must NOT have|must be equal to|must match a schema|must pass|must be (?:string|integer|number|boolean|object|array|null)\b|must be [<>]=?|must be (?:string|integer|number|boolean|object|array|null),|\b(?:body|querystring|params|headers)\/\S+ must/;

const parts = ['body', 'querystring', 'params', 'headers'] as const;
const MAX_DEPTH = 3;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every schema with an `$id` a route carries, so `$ref`s resolve as they do in the app. */
function schemasWithId(value: unknown, found: Map<string, Schema>): void {
  if (Array.isArray(value)) for (const item of value) schemasWithId(item, found);
  else if (isSchema(value)) {
    if (typeof value['$id'] === 'string' && !found.has(value['$id'])) found.set(value['$id'], value);
    for (const child of Object.values(value)) schemasWithId(child, found);
  }
}

function patternsOf(value: unknown, lookup: (ref: string) => Schema | undefined, found = new Set<string>(), depth = 0) {
  if (depth > 12) return found;
  if (Array.isArray(value)) for (const item of value) patternsOf(item, lookup, found, depth + 1);
  else if (isSchema(value)) {
    if (typeof value['pattern'] === 'string') found.add(value['pattern']);
    if (typeof value['$ref'] === 'string') patternsOf(lookup(value['$ref']), lookup, found, depth + 1);
    for (const child of Object.values(value)) patternsOf(child, lookup, found, depth + 1);
  }
  return found;
}

/** A value of another JSON type than `schema` allows (as text for a query or path, where everything is text). */
function otherType(schema: Schema, asText: boolean): unknown[] {
  const types = [schema['type']].flat();
  if (asText) return types.some((type) => type === 'integer' || type === 'number' || type === 'boolean') ? ['x'] : [];
  if (types.includes('string')) return [12345];
  if (types.includes('integer') || types.includes('number')) return ['12'];
  if (types.includes('boolean')) return ['yes'];
  if (types.includes('object') || types.includes('array')) return ['text'];
  return [];
}

/** Values that break one keyword of `schema` each, by the keyword's name. */
function breakingValues(schema: Schema, asText: boolean): [string, unknown][] {
  const text = (value: number) => (asText ? String(value) : value);
  const cases: [string, unknown][] = otherType(schema, asText).map((value) => ['type', value]);
  if ('const' in schema || Array.isArray(schema['enum'])) cases.push(['enum', 'not-an-allowed-value']);
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[key])) cases.push([key, 'not-an-allowed-value'], [`${key} type`, asText ? '' : { x: 1 }]);
  }
  if (typeof schema['format'] === 'string') cases.push(['format', 'not in the format']);
  if (typeof schema['pattern'] === 'string') cases.push(['pattern', ' \u0007 ']);
  const { minLength, maxLength, minimum, maximum } = schema;
  if (typeof minLength === 'number' && minLength > 0) cases.push(['minLength', '']);
  if (typeof maxLength === 'number') cases.push(['maxLength', 'x'.repeat(maxLength + 1)]);
  if (typeof minimum === 'number') cases.push(['minimum', text(Math.floor(minimum) - 1)]);
  if (typeof maximum === 'number') cases.push(['maximum', text(Math.ceil(maximum) + 1)]);
  if (isSchema(schema['items'])) cases.push(['items', otherType(schema['items'], asText)[0] ?? [null]]);
  if (typeof schema['maxItems'] === 'number') cases.push(['maxItems', Array.from({ length: schema['maxItems'] + 1 })]);
  return cases;
}

/** Objects each breaking one rule of an object schema: a missing required field, an unknown one, a bad value. */
function breakingObjects(
  schema: Schema,
  lookup: (ref: string) => Schema | undefined,
  asText: boolean,
  depth = 0,
): [string, Record<string, unknown>][] {
  const properties = isSchema(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required']) ? (schema['required'] as string[]) : [];
  const cases: [string, Record<string, unknown>][] = required.map((name) => [`/${name}: required`, {}]);
  if (schema['additionalProperties'] === false) cases.push(['unknown field', { unexpectedField: 'x' }]);
  for (const [name, raw] of Object.entries(properties)) {
    const property = typeof (raw as Schema)['$ref'] === 'string' ? lookup((raw as Schema)['$ref'] as string) : raw;
    if (!isSchema(property)) continue;
    for (const [keyword, value] of breakingValues(property, asText))
      cases.push([`/${name}: ${keyword}`, { [name]: value }]);
    if (depth < MAX_DEPTH && isSchema(property['properties'])) {
      for (const [where, value] of breakingObjects(property, lookup, asText, depth + 1)) {
        cases.push([`/${name}${where.startsWith('/') ? where : `: ${where}`}`, { [name]: value }]);
      }
    }
  }
  return cases;
}

/**
 * For every route of `app` (after `ready()`), every rule of its body, query, path and header schemas broken once,
 * with what the envelope would answer: compiled by the platform's validator and worded by `@platform/errors`, as a
 * request would be. For a test that no message repeats the validator's words or quotes a pattern (`validatorPhrasing`).
 */
export function schemaViolationMessages(
  app: FastifyInstance,
  routes: readonly RouteUnderTest[] = routesUnderTest(app),
): ViolationMessage[] {
  const shared = new Map<string, Schema>();
  for (const [id, schema] of Object.entries(app.getSchemas() as Record<string, Schema>)) shared.set(id, schema);
  for (const route of routes) schemasWithId(route.schema, shared);
  const compile = createValidatorFactory()(Object.fromEntries(shared));
  const lookup = (ref: string) => shared.get(ref.replace(/#.*$/, ''));

  const messages: ViolationMessage[] = [];
  for (const route of routes) {
    for (const part of parts) {
      const declared = (route.schema as Record<string, unknown>)[part];
      const schema = isSchema(declared) && typeof declared['$ref'] === 'string' ? lookup(declared['$ref']) : declared;
      if (!isSchema(schema)) continue;
      const validate = compile({ schema: declared, httpPart: part });
      const asText = part !== 'body';
      const cases: [string, unknown][] = [...breakingObjects(schema, lookup, asText)];
      if (part === 'body') cases.push(['the whole body: type', 'text'], ['the whole body: type', []]);
      const patterns = [...patternsOf(schema, lookup)];
      for (const [violation, data] of cases) {
        if (validate(structuredClone(data)) || validate.errors == null) continue;
        const summary = summarizeValidation(part, validate.errors);
        messages.push({
          route: `${route.method} ${route.url}`,
          part,
          violation,
          error: summary.message,
          details: summary.details,
          patterns,
        });
      }
    }
  }
  return messages;
}

/** The messages among `messages` that use the validator's words or quote one of their schema's patterns. */
export function unreadableMessages(messages: readonly ViolationMessage[]): ViolationMessage[] {
  return messages.filter((message) => {
    const texts = [message.error, ...message.details.map((detail) => detail.message)];
    return texts.some(
      (text) => validatorPhrasing.test(text) || message.patterns.some((pattern) => text.includes(pattern)),
    );
  });
}
