import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelopeSchema } from './envelope-schema.js';
import { errorEnvelope } from './error-envelope-plugin.js';
import { idempotencyKeyInUse, internalError, notFound, providerUnavailable, unauthorized } from './factories.js';

type LogLine = { level: number; reqId?: string; msg?: string; err?: { message?: string; stack?: string } };

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

async function buildApp(): Promise<{ app: FastifyInstance; logs: LogLine[] }> {
  const logs: LogLine[] = [];
  const instance = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) } },
  });
  await instance.register(errorEnvelope);
  await instance.register(multipart, { limits: { files: 1, fileSize: 10 } });

  instance.post(
    '/payments',
    {
      schema: {
        body: {
          type: 'object',
          required: ['method', 'amount'],
          properties: {
            method: { type: 'string', enum: ['card', 'mobile_money'] },
            amount: { type: 'integer', minimum: 1 },
          },
        },
        response: { 400: { $ref: 'ErrorEnvelope#' } },
      },
    },
    async () => ({ success: true }),
  );
  instance.get(
    '/upgrade-preview',
    {
      schema: {
        querystring: {
          type: 'object',
          required: ['newSeats'],
          properties: { newSeats: { type: 'integer', minimum: 1 } },
        },
      },
    },
    async () => ({ success: true }),
  );
  instance.post('/small', { bodyLimit: 64 }, async () => ({ success: true }));
  instance.get('/database-down', async () => {
    // As drizzle reports a query whose connection was refused: the driver's error is the cause.
    const driverError = Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), { code: 'ECONNREFUSED' });
    throw new Error('Failed query: select * from "wallets" where "id" = $1', { cause: driverError });
  });
  instance.get('/database-restarting', async () => {
    throw Object.assign(new Error('the database system is starting up'), { code: '57P03' });
  });
  instance.get('/boom', async () => {
    throw new Error('password=hunter2 at db.internal:5432');
  });
  instance.get('/profile', async () => {
    throw internalError('Failed to fetch profile', { cause: new Error('relation "users" does not exist') });
  });
  instance.get('/provider', async () => {
    throw providerUnavailable('Payment provider is unavailable, try again later');
  });
  instance.get('/profile/missing', async () => {
    throw notFound('Profile not found');
  });
  instance.get('/me', async () => {
    throw unauthorized();
  });
  instance.post('/idempotent', async () => {
    throw idempotencyKeyInUse(5);
  });
  instance.get('/bad-gateway', async () => {
    throw Object.assign(new Error('upstream said: secret'), { statusCode: 502 });
  });
  instance.get('/plugin-unavailable', async () => {
    throw Object.assign(new Error('pool exhausted'), { statusCode: 503 });
  });
  instance.get('/teapot', async () => {
    throw Object.assign(new Error('I am a teapot'), { statusCode: 418 });
  });
  instance.get('/csv', async (_request, reply) => {
    reply.type('text/csv');
    throw new Error('export failed');
  });
  instance.post('/avatar', async (request) => {
    const file = await request.file();
    await file?.toBuffer();
    return { success: true };
  });
  instance.post('/attachments', async (request) => {
    for await (const part of request.files()) await part.toBuffer();
    return { success: true };
  });
  await instance.ready();
  app = instance;
  return { app: instance, logs };
}

function multipartBody(files: Array<{ name: string; content: string }>): {
  payload: string;
  headers: Record<string, string>;
} {
  const boundary = '----platformtestboundary';
  const parts = files.map(
    (file) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="${file.name}.png"\r\n` +
      `Content-Type: image/png\r\n\r\n${file.content}\r\n`,
  );
  return {
    payload: `${parts.join('')}--${boundary}--\r\n`,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

describe('errorEnvelope: validation', () => {
  it('returns 400 validation_error with a readable sentence and details', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/payments', payload: { method: 'card', amount: 'abc' } });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toEqual({
      success: false,
      error: 'amount must be a whole number',
      code: 'validation_error',
      requestId: expect.any(String),
      details: [{ path: '/amount', message: 'must be a whole number' }],
    });
  });

  it('names a missing property by its path', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/payments', payload: { amount: 10 } });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'method is required',
      details: [{ path: '/method', message: 'is required' }],
    });
  });

  it('names a query parameter by its name, and its path by the part', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/upgrade-preview?newSeats=0' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      error: 'newSeats must be at least 1',
      details: [{ path: 'querystring/newSeats', message: 'must be at least 1' }],
    });
  });
});

describe('errorEnvelope: request body errors', () => {
  it('answers malformed JSON with 400 invalid_json', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/payments',
      headers: { 'content-type': 'application/json' },
      payload: '{"method": "card",',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'invalid_json',
      error: 'Request body is not valid JSON',
    });
  });

  it('answers an empty JSON body with 400 invalid_json', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/payments',
      headers: { 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_json');
  });

  it('answers a body over the limit with 413 payload_too_large naming the limit', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/small', payload: { note: 'x'.repeat(200) } });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      code: 'payload_too_large',
      error: 'Request body is larger than the limit of 64 bytes',
    });
  });

  it('answers an unsupported content type with 415 unsupported_media_type', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/payments',
      headers: { 'content-type': 'application/xml' },
      payload: '<payment/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      code: 'unsupported_media_type',
      error: 'Unsupported Content-Type application/xml',
    });
  });

  it('says a body without a Content-Type lacks one', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/payments', payload: Buffer.from('{}') });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      code: 'unsupported_media_type',
      error: 'The request has a body but no Content-Type header',
    });
  });
});

describe('errorEnvelope: multipart and rate limit errors', () => {
  it('answers a file over the size limit with 413', async () => {
    const { app } = await buildApp();
    const response = await app.inject({
      method: 'POST',
      url: '/avatar',
      ...multipartBody([{ name: 'file', content: 'x'.repeat(50) }]),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large', error: 'Uploaded file is too large' });
  });

  it('answers too many files with 413', async () => {
    const { app } = await buildApp();
    const body = multipartBody([
      { name: 'a', content: 'x' },
      { name: 'b', content: 'y' },
    ]);
    const response = await app.inject({ method: 'POST', url: '/attachments', ...body });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'payload_too_large', error: 'Too many files in the request' });
  });

  it('answers a non-multipart upload with 415', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'POST', url: '/avatar', payload: { file: 'nope' } });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      code: 'unsupported_media_type',
      error: 'Request must be multipart/form-data',
    });
  });

  it('answers a rate-limited request with 429 rate_limited and keeps Retry-After', async () => {
    const instance = Fastify({ logger: false });
    await instance.register(errorEnvelope);
    await instance.register(rateLimit, { max: 1, timeWindow: 60_000 });
    instance.get('/limited', async () => ({ success: true }));
    app = instance;
    expect((await instance.inject({ method: 'GET', url: '/limited' })).statusCode).toBe(200);
    const response = await instance.inject({ method: 'GET', url: '/limited' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('60');
    expect(response.json()).toMatchObject({
      success: false,
      code: 'rate_limited',
      error: expect.stringContaining('Rate limit exceeded'),
    });
  });
});

describe('errorEnvelope: application errors', () => {
  it('renders an AppError with its status, code and message', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/profile/missing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      error: 'Profile not found',
      code: 'not_found',
      requestId: expect.any(String),
    });
  });

  it('sets the headers an AppError carries', async () => {
    const { app } = await buildApp();
    const me = await app.inject({ method: 'GET', url: '/me' });
    expect(me.statusCode).toBe(401);
    expect(me.headers['www-authenticate']).toBe('Bearer');
    expect(me.json()).toMatchObject({ code: 'unauthorized', error: 'Authentication required' });

    const idempotent = await app.inject({ method: 'POST', url: '/idempotent' });
    expect(idempotent.statusCode).toBe(409);
    expect(idempotent.headers['retry-after']).toBe('5');
    expect(idempotent.json().code).toBe('idempotency_key_in_use');
  });

  it('keeps the status and message of other client errors from plugins', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/teapot' });
    expect(response.statusCode).toBe(418);
    expect(response.json()).toMatchObject({ code: 'bad_request', error: 'I am a teapot' });
  });

  it('answers an unknown route with a 404 envelope', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/nowhere?token=abc' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      error: 'Route GET /nowhere not found',
      code: 'not_found',
      requestId: expect.any(String),
    });
  });
});

describe('errorEnvelope: server faults', () => {
  it('hides a thrown Error behind a generic 500 and logs the cause with the request id', async () => {
    const { app, logs } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/boom' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({
      success: false,
      error: 'Internal server error',
      code: 'internal_error',
      requestId: expect.any(String),
    });
    expect(response.body).not.toContain('hunter2');

    const logged = logs.find((line) => line.level === 50 && line.reqId === body.requestId);
    expect(logged?.err?.message).toBe('password=hunter2 at db.internal:5432');
    expect(logged?.err?.stack).toContain('error-envelope-plugin.test.ts');
  });

  it("shows an internalError's own message but logs its cause", async () => {
    const { app, logs } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/profile' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toMatchObject({ error: 'Failed to fetch profile', code: 'internal_error' });
    expect(response.body).not.toContain('relation');
    const logged = logs.find((line) => line.level === 50 && line.reqId === body.requestId);
    expect(JSON.stringify(logged)).toContain('relation \\"users\\" does not exist');
  });

  it('renders a provider outage as 503 provider_unavailable and logs it', async () => {
    const { app, logs } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/provider' });
    expect(response.statusCode).toBe(503);
    expect(response.json().code).toBe('provider_unavailable');
    expect(logs.some((line) => line.level === 50 && line.reqId === response.json().requestId)).toBe(true);
  });

  it('answers a lost or refused database connection with 503 service_unavailable and Retry-After, no internals', async () => {
    const { app, logs } = await buildApp();
    for (const url of ['/database-down', '/database-restarting']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({
        success: false,
        error: 'Service temporarily unavailable; retry shortly',
        code: 'service_unavailable',
        requestId: expect.any(String),
      });
      expect(response.body).not.toMatch(/wallets|10\.0\.0\.5|starting up/);
      expect(logs.some((line) => line.level === 50 && line.reqId === response.json().requestId)).toBe(true);
    }
  });

  it('turns 5xx errors from plugins into generic responses', async () => {
    const { app } = await buildApp();
    const badGateway = await app.inject({ method: 'GET', url: '/bad-gateway' });
    expect(badGateway.statusCode).toBe(500);
    expect(badGateway.json()).toMatchObject({ code: 'internal_error', error: 'Internal server error' });

    const unavailable = await app.inject({ method: 'GET', url: '/plugin-unavailable' });
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.json()).toMatchObject({ code: 'service_unavailable', error: 'Service temporarily unavailable' });
    expect(unavailable.body).not.toContain('pool');
  });

  it('answers in JSON even when the handler had set another content type', async () => {
    const { app } = await buildApp();
    const response = await app.inject({ method: 'GET', url: '/csv' });
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json().code).toBe('internal_error');
  });
});

describe('errorEnvelopeSchema', () => {
  it('is registered as a shared schema and matches what the handler sends', async () => {
    const { app } = await buildApp();
    expect(app.getSchema('ErrorEnvelope')).toEqual(errorEnvelopeSchema);
    const response = await app.inject({ method: 'POST', url: '/payments', payload: { method: 'cash', amount: 1 } });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: '/method', message: 'must be card or mobile_money' }]);
  });
});
