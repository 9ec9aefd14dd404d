import { Writable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { unauthorized } from '@platform/errors';
import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import { afterEach } from 'vitest';
import { type AppServer, type CreateServerOptions, createServer } from './create-server.js';
import { errorResponses, SuccessMessage, SuccessOnly } from './schemas.js';

// What the tests of createServer (create-server.test.ts, server-*.test.ts) share: a service, its log lines and the
// routes it serves.

export type LogLine = { level: number; reqId?: string; msg?: string; check?: string; err?: { message?: string } };

export const service = { name: 'test-service', version: '1.2.3', description: 'Service under test' };
export const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const PaymentBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 0 }),
    method: Type.Union([Type.Literal('card'), Type.Literal('mobile_money')]),
    email: Type.Optional(Type.String({ format: 'email' })),
    dob: Type.Optional(Type.String({ format: 'date' })),
  },
  { $id: 'PaymentBody' },
);

/**
 * For the calling suite: `build` makes a server with the routes under test, logging into the `logs` it returns;
 * it, or the server last given to `closesAfterTest`, is closed after each test.
 */
export function serverUnderTest() {
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
  function closesAfterTest(server: AppServer): void {
    app = server;
  }

  return { build, closesAfterTest };
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
