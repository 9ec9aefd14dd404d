import type { FastifyInstance, RouteOptions } from 'fastify';

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The outermost schemas carrying an `$id` inside a route schema part (nested `$id`s travel with them). */
function schemasWithId(value: unknown, found: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(value)) {
    for (const item of value) schemasWithId(item, found);
  } else if (isObject(value)) {
    if (typeof value['$id'] === 'string') found.push(value);
    else for (const child of Object.values(value)) schemasWithId(child, found);
  }
  return found;
}

function routeSchemaParts(route: RouteOptions): unknown[] {
  const schema = route.schema as JsonObject | undefined;
  if (schema === undefined) return [];
  return [schema['body'], schema['querystring'], schema['params'], schema['headers'], schema['response']];
}

/**
 * Registers every `$id` schema a route uses inline as a shared schema of the route's plugin, so
 * OpenAPI lists it under components.schemas by that name and `$ref: '<id>#'` resolves to it.
 */
export function shareRouteSchemas(this: FastifyInstance, route: RouteOptions): void {
  for (const schema of routeSchemaParts(route).flatMap((part) => schemasWithId(part))) {
    const id = schema['$id'] as string;
    const existing = this.getSchema(id);
    if (existing === undefined) this.addSchema(schema);
    else if (existing !== schema && JSON.stringify(existing) !== JSON.stringify(schema)) {
      // Validation and documentation would silently use the other one.
      throw new Error(`Two different schemas use the $id '${id}' (route ${String(route.method)} ${route.url})`);
    }
  }
}

/** Replaces inline `$id` schemas by references, so the document points at the components. */
export function referenceSchemasWithId(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(referenceSchemasWithId);
  if (!isObject(value)) return value;
  if (typeof value['$id'] === 'string') {
    const reference: JsonObject = { $ref: `${value['$id']}#` };
    if (typeof value['description'] === 'string') reference['description'] = value['description'];
    return reference;
  }
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, referenceSchemasWithId(child)]));
}
