import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { referenceSchemasWithId } from './shared-schemas.js';

export type ServiceInfo = { name: string; version: string; description: string };

/** An OpenAPI 3.1 security scheme, e.g. `{ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }`. */
export type SecurityScheme =
  | { type: 'http'; scheme: string; bearerFormat?: string; description?: string }
  | { type: 'apiKey'; name: string; in: 'header' | 'query' | 'cookie'; description?: string }
  | { type: 'oauth2' | 'openIdConnect' | 'mutualTLS'; description?: string; [field: string]: unknown };

export type OpenApiOptions = { service: ServiceInfo; security?: Record<string, SecurityScheme> };

export const docsPrefix = '/docs';

// Swagger UI needs its own scripts, inline styles and data: images; the API itself keeps helmet's policy.
const docsContentSecurityPolicy = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' https: 'unsafe-inline'",
].join('; ');

// Components are named after the schemas' $id, which must fit OpenAPI's component name pattern.
function componentName(json: Record<string, unknown>, index: number): string {
  return typeof json['$id'] === 'string' ? json['$id'].replace(/[^A-Za-z0-9._-]/g, '_') : `def-${index}`;
}

type RouteSchema = FastifySchema & { response?: Record<string, unknown> };

const inputParts = ['body', 'querystring', 'params', 'headers'] as const;

// Bodies and responses point at their components; the error envelope is documented on every operation
// (400 where input is validated, and a default for the rest). Parameters stay inline: they are expanded.
function documentedSchema(schema: RouteSchema | undefined): RouteSchema {
  const base: RouteSchema = { ...schema };
  if (base.body !== undefined) base.body = referenceSchemasWithId(base.body);
  const response = referenceSchemasWithId(base.response ?? {}) as Record<string, unknown>;
  const validatesInput = inputParts.some((part) => base[part] !== undefined);
  if (validatesInput && response['400'] === undefined && response['4xx'] === undefined) {
    response['400'] = { $ref: 'ErrorEnvelope#', description: 'Invalid request' };
  }
  if (response['default'] === undefined) {
    response['default'] = { $ref: 'ErrorEnvelope#', description: 'Error' };
  }
  return { ...base, response };
}

export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions): Promise<void> {
  const openapi = {
    openapi: '3.1.0',
    info: {
      title: options.service.name,
      version: options.service.version,
      description: options.service.description,
    },
    components: { securitySchemes: options.security ?? {} },
  } as FastifyDynamicSwaggerOptions['openapi'];
  await app.register(swagger, {
    openapi,
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => componentName(json, index) },
    convertConstToEnum: false,
    transform: ({ schema, url }) => ({ schema: documentedSchema(schema as RouteSchema), url }),
  });

  await app.register(async (docs) => {
    // Documentation is readable without credentials.
    docs.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await docs.register(swaggerUi, {
      routePrefix: docsPrefix,
      staticCSP: docsContentSecurityPolicy,
      theme: { title: `${options.service.name} API` },
    });
  });

  app.get('/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());
}
