import { Ajv, type Options as AjvOptions, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';

/** What Fastify passes when it compiles one part of a route's schema. */
export type RouteSchemaDefinition = { schema: unknown; httpPart?: string; method?: string; url?: string };
export type ValidatorCompiler = (route: RouteSchemaDefinition) => ValidateFunction;
/** Shape of Fastify's `schemaController.compilersFactory.buildValidator` (its published type is not this one). */
export type ValidatorFactory = (externalSchemas: unknown, ajvServerOptions?: unknown) => ValidatorCompiler;

// Query strings and path params only ever arrive as strings; bodies and headers are taken as sent,
// so `"amount": "100"` is rejected rather than silently turned into a number.
const coercedParts = new Set(['querystring', 'params']);

const sharedOptions: AjvOptions = {
  allErrors: true,
  removeAdditional: false,
  useDefaults: true,
  addUsedSchema: false,
  // Tolerate OpenAPI's `example` annotation; unknown keywords are still schema mistakes.
  keywords: ['example'],
  // These only print warnings to the console at compile time.
  strictTypes: false,
  strictTuples: false,
};

function buildAjv(coerceTypes: AjvOptions['coerceTypes'], externalSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv({ ...sharedOptions, coerceTypes });
  addFormats.default(ajv);
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

/**
 * Fastify validator factory with two Ajv instances: strict (no coercion) for body and headers,
 * coercing for querystring and params. Built once per set of shared schemas, like Fastify's own.
 */
export function createValidatorFactory(): ValidatorFactory {
  const byExternalSchemas = new Map<string, ValidatorCompiler>();
  return (externalSchemas) => {
    const external = (externalSchemas ?? {}) as Record<string, unknown>;
    const key = JSON.stringify(external);
    const cached = byExternalSchemas.get(key);
    if (cached !== undefined) return cached;

    const strict = buildAjv(false, external);
    const coercing = buildAjv('array', external);
    const compiler: ValidatorCompiler = ({ schema, httpPart }) =>
      compileWith(httpPart !== undefined && coercedParts.has(httpPart) ? coercing : strict, schema as Record<string, unknown>);
    byExternalSchemas.set(key, compiler);
    return compiler;
  };
}
