import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AppError, errorEnvelope, sendErrorEnvelope } from '@platform/errors';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyHttpOptions,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawServerDefault,
} from 'fastify';
import fp from 'fastify-plugin';
import { answerClientError } from './client-error.js';
import { type ReadinessCheck, registerHealthRoutes } from './health.js';
import { requireHostHeader } from './host-header.js';
import { createMetrics, recordRequestMetrics, registerMetricsRoute } from './metrics.js';
import { registerOpenApi, type SecurityScheme, type ServiceInfo } from './openapi.js';
import { requestIdFrom, requestIdHeader } from './request-id.js';
import { SingleLineRequestLog } from './request-log.js';
import type {} from './route-config.js';
import { recordRouteInventory } from './route-inventory.js';
import { secretSafeLogging } from './secret-safe-logging.js';
import { SecretUrls } from './secret-urls.js';
import { type HelmetOptions, registerSecurityHeaders } from './security-headers.js';
import { shareRouteSchemas } from './shared-schemas.js';
import { refuseUnstorableText } from './storable-text.js';
import { defaultUnreadBodyDrain, drainUnreadBodies, type UnreadBodyDrain } from './unread-body.js';
import { createValidatorFactory } from './validator-compiler.js';

export type AppServer = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export type CreateServerOptions = {
  service: ServiceInfo;
  /** Fastify logger options (`false` silences it), or a ready pino logger. Default: info-level JSON. */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  /** Largest accepted request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /**
   * How much of a body answered before it was read (413 over bodyLimit, 401...) is still read and discarded so
   * the client, still sending, can read the answer (default 64 MiB within 30 s); past that the connection is
   * destroyed.
   */
  unreadBodyDrain?: Partial<UnreadBodyDrain>;
  trustProxy?: boolean;
  /** OpenAPI security schemes, by name (components.securitySchemes). */
  security?: Record<string, SecurityScheme>;
  /** Run by GET /readyz, by name (e.g. database): one failing makes the service not ready (503). */
  readinessChecks?: Record<string, ReadinessCheck>;
  /** Also run by GET /readyz (e.g. redis), but only reported: the service serves without them (degraded). */
  optionalChecks?: Record<string, ReadinessCheck>;
  readinessTimeoutMs?: number;
  /** helmet options, replacing the defaults (CSP without upgrade-insecure-requests, cross-origin CORP). */
  helmet?: HelmetOptions;
  /** When set, `GET /metrics` requires `Authorization: Bearer <metricsToken>`; otherwise it is open. */
  metricsToken?: string;
};

type BuildValidator = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

const defaultBodyLimit = 1024 * 1024;

const invalidUtf8Message = 'Request body is not valid UTF-8: send JSON encoded as UTF-8';

const defaultHelmetOptions: HelmetOptions = {
  // Local runs serve plain http on loopback; upgrading their subresources to https would break pages.
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  // Files this API serves (avatars) are meant to be shown by front ends on other origins.
  crossOriginResourcePolicy: { policy: 'cross-origin' },
};

/**
 * JSON bodies as the services read them. Some clients send `content-type: application/json` on every request,
 * bodiless PATCHes included: an empty body reads as no body, and routes that need one still refuse it through their
 * schema. JSON is UTF-8 (RFC 8259): bytes that are not (`FF FE C3`) would be read as U+FFFD and stored as such, so they
 * are a 400 `invalid_json` before any handler runs (docs/decisions.md#unstorable-text-is-refused). A provider's
 * message (`config.sentByProvider`) is authentic and kept, replacement characters and all.
 */
function readJsonBodies(app: AppServer): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    if (!isUtf8(bytes) && request.routeOptions.config?.sentByProvider !== true) {
      return done(new AppError('invalid_json', invalidUtf8Message));
    }
    parseJson(request, bytes.toString('utf8'), done);
  });
}

/**
 * A Fastify instance with the platform's shared plumbing: request ids, strict validation, security
 * headers, the error envelope, OpenAPI at /openapi.json and /docs, /healthz and /readyz, and Prometheus
 * metrics at /metrics (`app.metrics` holds the counters other modules increment).
 * Register routes inside plugins (`app.register(routes)`) so they are documented.
 */
export function createServer(options: CreateServerOptions): AppServer {
  const secretUrls = new SecretUrls();
  const serverOptions: FastifyHttpOptions<RawServerDefault> = {
    bodyLimit: options.bodyLimit ?? defaultBodyLimit,
    trustProxy: options.trustProxy ?? false,
    requestIdHeader: false,
    logController: new SingleLineRequestLog(secretUrls),
    genReqId: (request) => requestIdFrom(request.headers[requestIdHeader]),
    schemaController: {
      // Fastify's published type for this factory does not match what it calls; ours does.
      compilersFactory: { buildValidator: createValidatorFactory() as unknown as BuildValidator },
    },
    // Errors raised by the router before any hook runs (malformed URL...) still get the envelope.
    frameworkErrors: (error, request, reply) => {
      reply.header(requestIdHeader, request.id);
      sendErrorEnvelope(error, request, reply);
    },
    // What Node's parser refuses before there is a request (431, malformed HTTP) also gets the envelope.
    clientErrorHandler: answerClientError,
    // Checked by requireHostHeader instead, which answers with the envelope.
    http: { requireHostHeader: false },
  };
  const app: AppServer = Fastify({
    ...serverOptions,
    ...secretSafeLogging(options.logger, secretUrls),
  }).withTypeProvider<TypeBoxTypeProvider>();

  let documentationReady = false;
  app.addHook('onRoute', (route) => {
    if (!documentationReady && route.schema?.hide !== true) {
      throw new Error(
        `Route ${String(route.method)} ${route.url} was added before createServer's plugins loaded, so it would be ` +
          'missing from /openapi.json: declare routes inside a plugin (app.register(...)).',
      );
    }
  });
  app.addHook('onRoute', shareRouteSchemas);
  app.addHook('onRoute', (route) => {
    if (route.config?.urlCarriesSecret === true) secretUrls.add(route.url);
  });
  app.decorateRequest('requestLogFacts', null);
  recordRouteInventory(app);
  readJsonBodies(app);
  drainUnreadBodies(app, { ...defaultUnreadBodyDrain, ...options.unreadBodyDrain });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(requestIdHeader, request.id);
    done();
  });
  requireHostHeader(app);
  // Text PostgreSQL cannot store (U+0000, lone surrogates) is refused before any handler sees it.
  app.addHook('preHandler', refuseUnstorableText);
  const metrics = createMetrics();
  app.decorate('metrics', metrics);
  recordRequestMetrics(app, metrics);

  registerSecurityHeaders(app, options.helmet ?? defaultHelmetOptions);
  app.register(errorEnvelope);
  app.register(
    fp(async (instance: FastifyInstance) => registerOpenApi(instance, options), { name: '@platform/http/openapi' }),
  );
  app.register(async () => {
    documentationReady = true;
  });
  app.register(async (instance) => registerHealthRoutes(instance, options));
  app.register(async (instance) =>
    registerMetricsRoute(instance, {
      metrics,
      ...(options.metricsToken === undefined ? {} : { token: options.metricsToken }),
    }),
  );
  return app;
}
