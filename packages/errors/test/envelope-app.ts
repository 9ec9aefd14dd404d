import multipart from '@fastify/multipart';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach } from 'vitest';
import { errorEnvelope } from '../src/error-envelope-plugin.js';
import { idempotencyKeyInUse, internalError, notFound, providerUnavailable, unauthorized } from '../src/factories.js';

// A Fastify app with the error envelope and a route for each kind of error it renders, closed after each test.

type LogLine = { level: number; reqId?: string; msg?: string; err?: { message?: string; stack?: string } };

export interface EnvelopeApps {
  /** The app with every error route, and the log lines it writes. */
  buildApp(): Promise<{ app: FastifyInstance; logs: LogLine[] }>;
  /** Closes an app a test built by itself once the test ends. */
  closeAfterTest(instance: FastifyInstance): void;
}

export function useEnvelopeApps(): EnvelopeApps {
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

  return {
    buildApp,
    closeAfterTest(instance) {
      app = instance;
    },
  };
}

/** A multipart/form-data body of the named files, each a PNG part with `content`. */
export function multipartBody(files: Array<{ name: string; content: string }>): {
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
