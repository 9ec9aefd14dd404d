import { Writable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { unauthorized } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, type CreateServerOptions, createServer } from './create-server.js';
import { errorResponses, SuccessMessage, SuccessOnly } from './schemas.js';

type LogLine = { level: number; reqId?: string; msg?: string; check?: string; err?: { message?: string } };

const service = { name: 'test-service', version: '1.2.3', description: 'Service under test' };
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const PaymentBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 0 }),
    method: Type.Union([Type.Literal('card'), Type.Literal('mobile_money')]),
    email: Type.Optional(Type.String({ format: 'email' })),
    dob: Type.Optional(Type.String({ format: 'date' })),
  },
  { $id: 'PaymentBody' },
);

let app: AppServer | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

function build(options: Partial<CreateServerOptions> = {}): { app: AppServer; logs: LogLine[] } {
  const logs: LogLine[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') logs.push(JSON.parse(line) as LogLine);
      done();
    },
  });
  const server = createServer({
    service,
    logger: pino({ level: 'info' }, destination),
    security: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    ...options,
  });
  server.register(routesUnderTest);
  app = server;
  return { app: server, logs };
}

const routesUnderTest: FastifyPluginAsyncTypebox = async (routes) => {
  routes.post(
    '/v1/payments',
    { schema: { body: PaymentBody, response: { 200: SuccessMessage, ...errorResponses(400, 401) } } },
    async (request) => ({ success: true as const, message: `keys: ${Object.keys(request.body).sort().join(',')}` }),
  );
  routes.get(
    '/v1/upgrade/preview',
    {
      schema: {
        querystring: Type.Object({
          newSeats: Type.Integer({ minimum: 1 }),
          limit: Type.Integer({ default: 20 }),
        }),
      },
    },
    async (request) => ({
      newSeats: request.query.newSeats,
      limit: request.query.limit,
      type: typeof request.query.newSeats,
    }),
  );
  routes.get(
    '/v1/items/:position',
    { schema: { params: Type.Object({ position: Type.Integer() }) } },
    async (request) => ({ position: request.params.position, type: typeof request.params.position }),
  );
  routes.get('/v1/counted', { schema: { headers: Type.Object({ 'x-count': Type.Integer() }) } }, async () => ({
    success: true as const,
  }));
  routes.patch('/v1/notifications/read-all', { schema: { response: { 200: SuccessOnly } } }, async () => ({
    success: true as const,
  }));
  routes.get('/v1/boom', async () => {
    throw new Error('connection to 10.1.2.3 refused');
  });
  routes.get('/v1/private', async () => {
    throw unauthorized();
  });
};

describe('request ids', () => {
  it("echoes the caller's x-request-id and logs it", async () => {
    const { app, logs } = build();
    const response = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: {
        'x-request-id': 'req-abc.123',
        authorization: 'Bearer a-secret-token',
        'x-service-api-key': 'sk_live_secret',
      },
    });
    expect(response.headers['x-request-id']).toBe('req-abc.123');
    const lines = logs.filter((line) => line.reqId === 'req-abc.123');
    // One line per request, when it ends, with no headers: credentials never reach the logs.
    expect(lines).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        method: 'GET',
        url: '/healthz',
        statusCode: 200,
        responseTime: expect.any(Number),
      }),
    ]);
    expect(Object.keys(lines[0] ?? {}).sort()).toEqual(
      ['hostname', 'level', 'method', 'msg', 'pid', 'reqId', 'responseTime', 'statusCode', 'time', 'url'].sort(),
    );
    expect(JSON.stringify(logs)).not.toMatch(/a-secret-token|sk_live_secret/);
  });

  it('generates a UUID when the header is missing', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['x-request-id']).toMatch(uuid);
  });

  it('replaces an unacceptable id', async () => {
    const { app } = build();
    const tooLong = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'x'.repeat(129) } });
    expect(tooLong.headers['x-request-id']).toMatch(uuid);
    const withSpace = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'a b' } });
    expect(withSpace.headers['x-request-id']).toMatch(uuid);
  });

  it('puts the same id in the header and in error envelopes, including unknown routes', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/nope', headers: { 'x-request-id': 'trace-404' } });
    expect(response.statusCode).toBe(404);
    expect(response.headers['x-request-id']).toBe('trace-404');
    expect(response.json()).toEqual({
      success: false,
      error: 'Route GET /nope not found',
      code: 'not_found',
      requestId: 'trace-404',
    });
  });
});

describe('validation', () => {
  it('does not coerce body values: "100" is not an integer', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: '100', method: 'card' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: 'amount must be a whole number of at least 0',
      details: [{ path: '/amount', message: 'must be a whole number of at least 0' }],
    });
  });

  it('reports every failed rule', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: -1, method: 'cash', email: 'nope', dob: '2023-02-30' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: '/amount', message: 'must be a whole number of at least 0' },
      { path: '/method', message: 'must be card or mobile_money' },
      { path: '/email', message: 'must be an email address' },
      { path: '/dob', message: 'must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31' },
    ]);
    expect(response.json().error).toBe(
      'amount must be a whole number of at least 0; method must be card or mobile_money; email must be an email ' +
        'address; dob must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31',
    );
  });

  it('keeps unknown body fields rather than stripping or rejecting them', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: 100, method: 'card', note: 'x' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'keys: amount,method,note' });
  });

  it('coerces querystring values and applies their defaults', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/upgrade/preview?newSeats=10' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ newSeats: 10, limit: 20, type: 'number' });
  });

  it('names the querystring in its failures', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/upgrade/preview?newSeats=ten' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'newSeats must be a whole number of at least 1',
      details: [{ path: 'querystring/newSeats', message: 'must be a whole number of at least 1' }],
    });
  });

  it('coerces path params', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/items/7' });
    expect(response.json()).toEqual({ position: 7, type: 'number' });
    const bad = await app.inject({ method: 'GET', url: '/v1/items/seven' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      error: 'position must be a whole number',
      details: [{ path: 'params/position', message: 'must be a whole number' }],
    });
  });

  it('does not coerce headers', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/counted', headers: { 'x-count': '5' } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'the x-count header must be a whole number',
      details: [{ path: 'headers/x-count', message: 'must be a whole number' }],
    });
  });
});

describe('error envelope', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      headers: { 'content-type': 'application/json' },
      payload: '{"amount": 1',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_json', requestId: response.headers['x-request-id'] });
  });

  it('reads an empty JSON body as no body: bodiless routes work, routes that need one refuse it', async () => {
    const { app } = build();
    const headers = { 'content-type': 'application/json' };
    const bodiless = await app.inject({ method: 'PATCH', url: '/v1/notifications/read-all', headers, payload: '' });
    expect(bodiless.statusCode).toBe(200);
    const needsBody = await app.inject({ method: 'POST', url: '/v1/payments', headers, payload: '' });
    expect(needsBody.statusCode).toBe(400);
    expect(needsBody.json()).toMatchObject({ code: 'validation_error' });
  });

  it('answers a body over the configured limit with 413', async () => {
    const { app } = build({ bodyLimit: 100 });
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      payload: { amount: 1, method: 'card', pad: 'x'.repeat(200) },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'payload_too_large',
      error: 'Request body is larger than the limit of 100 bytes',
    });
  });

  it('answers an unsupported content type with 415', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'POST',
      url: '/v1/payments',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'amount=1',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().code).toBe('unsupported_media_type');
  });

  it('hides a thrown Error behind a generic 500 and logs the cause with the request id', async () => {
    const { app, logs } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/boom', headers: { 'x-request-id': 'trace-500' } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      success: false,
      error: 'Internal server error',
      code: 'internal_error',
      requestId: 'trace-500',
    });
    expect(response.body).not.toContain('10.1.2.3');
    const logged = logs.find((line) => line.level === 50 && line.reqId === 'trace-500');
    expect(logged?.err?.message).toBe('connection to 10.1.2.3 refused');
  });

  it('sets the headers an AppError carries', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/v1/private' });
    expect(response.statusCode).toBe(401);
    expect(response.headers['www-authenticate']).toBe('Bearer');
    expect(response.json().code).toBe('unauthorized');
  });

  it('answers a malformed URL with the envelope', async () => {
    const { app } = build();
    const response = await app.inject({
      method: 'GET',
      url: '/v1/items/%E0%A4%A',
      headers: { 'x-request-id': 'trace-url' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.headers['x-request-id']).toBe('trace-url');
    expect(response.json()).toEqual({
      success: false,
      error: 'Request URL is malformed',
      code: 'bad_request',
      requestId: 'trace-url',
    });
  });
});

describe('health', () => {
  it('answers /healthz', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with every check when all pass', async () => {
    const { app } = build({ readinessChecks: { database: async () => {} }, optionalChecks: { redis: async () => {} } });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });
  });

  it('answers /readyz with 503 naming the failed required checks, and logs why', async () => {
    const { app, logs } = build({
      readinessChecks: {
        database: async () => {
          throw new Error('ECONNREFUSED 127.0.0.1:5432');
        },
      },
      optionalChecks: { redis: async () => {} },
    });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'service_unavailable',
      error: 'Service not ready: database unavailable',
    });
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(logs.some((line) => line.check === 'database' && line.err?.message === 'ECONNREFUSED 127.0.0.1:5432')).toBe(
      true,
    );
  });

  it('stays ready (200, degraded) when only an optional check fails, reporting it and logging why', async () => {
    const { app, logs } = build({
      readinessChecks: { database: async () => {} },
      optionalChecks: {
        redis: async () => {
          throw new Error('ECONNREFUSED 127.0.0.1:6379');
        },
      },
    });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } });
    expect(response.body).not.toContain('ECONNREFUSED');
    expect(logs.some((line) => line.check === 'redis' && line.err?.message === 'ECONNREFUSED 127.0.0.1:6379')).toBe(
      true,
    );
  });

  it('documents the degraded answer in OpenAPI', async () => {
    const { app } = build();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const schema = document.paths['/readyz'].get.responses['200'].content['application/json'].schema;
    expect(schema.properties.status.anyOf.map((branch: { const: string }) => branch.const)).toEqual(['ok', 'degraded']);
    expect(JSON.stringify(schema.properties.checks)).toContain('unavailable');
  });

  it('counts a check that hangs as failed', async () => {
    // Short on purpose and safe on a loaded machine: the only check never settles, so nothing can beat the limit.
    const { app } = build({
      readinessTimeoutMs: 50,
      readinessChecks: { database: () => new Promise<void>(() => {}) },
    });
    const response = await app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe('Service not ready: database unavailable');
  });
});

describe('security headers', () => {
  it('sets helmet headers, without upgrading local http requests', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
    expect(response.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
  });
});

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document built from the routes', async () => {
    const { app } = build();
    const response = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'test-service', version: '1.2.3', description: 'Service under test' });
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/v1/payments', '/v1/upgrade/preview']),
    );
    expect(document.paths['/openapi.json']).toBeUndefined();
    expect(Object.keys(document.paths).some((path) => path.startsWith('/docs'))).toBe(false);
  });

  it('lists $id schemas as components and references them', async () => {
    const { app } = build();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining(['ErrorEnvelope', 'PaymentBody', 'SuccessMessage', 'SuccessOnly']),
    );
    const payment = document.paths['/v1/payments'].post;
    expect(payment.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/PaymentBody',
    });
    expect(payment.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SuccessMessage',
    });
    expect(payment.responses['401'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    expect(payment.responses['default'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ErrorEnvelope',
    });
    const readAll = document.paths['/v1/notifications/read-all'].patch;
    expect(readAll.responses['200'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/SuccessOnly',
    });
  });

  it('documents query parameters inline', async () => {
    const { app } = build();
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = document.paths['/v1/upgrade/preview'].get.parameters as Array<{ name: string; in: string }>;
    expect(parameters.map((parameter) => [parameter.in, parameter.name])).toEqual([
      ['query', 'newSeats'],
      ['query', 'limit'],
    ]);
  });

  it('serves Swagger UI at /docs with its assets and a policy that lets it run', async () => {
    const { app } = build();
    const page = await app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger-ui-bundle.js');
    expect(page.body).toContain('<title>test-service API</title>');
    expect(page.headers['content-security-policy']).toContain("style-src 'self' https: 'unsafe-inline'");

    for (const asset of [
      '/docs/static/swagger-ui-bundle.js',
      '/docs/static/swagger-ui.css',
      '/docs/static/swagger-initializer.js',
    ]) {
      const response = await app.inject({ method: 'GET', url: asset });
      expect(response.statusCode, asset).toBe(200);
      expect(response.body.length, asset).toBeGreaterThan(100);
    }
    const json = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(json.json().openapi).toBe('3.1.0');
  });

  it('marks docs, OpenAPI and probes as public routes', async () => {
    const { app } = build();
    // What a service's authentication hook does: only public routes pass without credentials.
    app.addHook('onRequest', async (request) => {
      if (request.routeOptions.config.public !== true && request.routeOptions.url !== undefined) throw unauthorized();
    });
    for (const url of ['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/static/swagger-ui.css', '/docs/json']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await app.inject({ method: 'PATCH', url: '/v1/notifications/read-all' })).statusCode).toBe(401);
  });
});

describe('route registration', () => {
  it('refuses routes declared before the shared plugins load, which OpenAPI would miss', () => {
    const server = createServer({ service, logger: false });
    app = server;
    expect(() => server.get('/too-early', async () => ({}))).toThrow(/declare routes inside a plugin/);
  });

  it('refuses two different schemas with the same $id', async () => {
    const server = createServer({ service, logger: false });
    app = server;
    server.register(async (routes) => {
      routes.post('/a', { schema: { body: Type.Object({ a: Type.String() }, { $id: 'Clash' }) } }, async () => ({}));
      routes.post('/b', { schema: { body: Type.Object({ b: Type.String() }, { $id: 'Clash' }) } }, async () => ({}));
    });
    await expect(server.ready()).rejects.toThrow(/Two different schemas use the \$id 'Clash'/);
  });
});
