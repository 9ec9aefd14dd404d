import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AppServer, createServer } from './create-server.js';

// Query strings and path params are text: declared numbers and booleans are read from their canonical
// text only (docs/decisions.md#strict-validation); bodies and headers are never converted.

const Tag = Type.Object({ code: Type.Integer({ minimum: 0 }) }, { $id: 'TagCode' });

const routes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/query',
    {
      schema: {
        querystring: Type.Object({
          seats: Type.Optional(Type.Integer({ minimum: -5, maximum: 1_000_000 })),
          ratio: Type.Optional(Type.Number()),
          flag: Type.Optional(Type.Boolean()),
          name: Type.Optional(Type.String()),
          parent: Type.Optional(Type.Union([Type.String({ format: 'uuid' }), Type.Literal('root')])),
          ids: Type.Optional(Type.Array(Type.Integer())),
          limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
        }),
      },
    },
    async (request) => ({
      query: request.query,
      types: Object.fromEntries(Object.entries(request.query).map(([key, value]) => [key, typeof value])),
    }),
  );
  app.get(
    '/items/:position',
    { schema: { params: Type.Object({ position: Type.Integer({ minimum: 0 }) }) } },
    async (request) => ({ position: request.params.position }),
  );
  app.get('/tags/:code', { schema: { params: Type.Ref(Tag) } }, async (request) => ({ params: request.params }));
  app.post(
    '/body',
    { schema: { body: Type.Object({ seats: Type.Integer(), flag: Type.Optional(Type.Boolean()) }) } },
    async (request) => ({
      body: request.body,
    }),
  );
};

let app: AppServer;
beforeAll(async () => {
  app = createServer({
    service: { name: 'validator-test', version: '0.0.0', description: 'validator' },
    logger: false,
  });
  app.addSchema(Tag);
  await app.register(routes);
  await app.ready();
});
afterAll(async () => {
  await app?.close();
});

const get = (url: string) => app.inject({ method: 'GET', url });

const SEATS = 'must be a whole number from -5 to 1,000,000';
const LIMIT = 'must be a whole number from 1 to 100';

describe('query values are read from canonical text', () => {
  it.each([
    ['seats=25', { seats: 25 }],
    ['seats=0', { seats: 0 }],
    ['seats=-0', { seats: 0 }],
    ['seats=-3', { seats: -3 }],
    ['seats=1000000', { seats: 1_000_000 }],
    ['ratio=0.25', { ratio: 0.25 }],
    ['ratio=-12', { ratio: -12 }],
    ['flag=true', { flag: true }],
    ['flag=false', { flag: false }],
    ['name=25', { name: '25' }],
    ['name=true', { name: 'true' }],
    ['parent=root', { parent: 'root' }],
    ['ids=7', { ids: [7] }],
    ['ids=7&ids=8', { ids: [7, 8] }],
  ])('%s', async (query, expected) => {
    const response = await get(`/query?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().query).toEqual({ limit: 50, ...expected });
  });

  it('applies defaults as typed values', async () => {
    expect((await get('/query')).json()).toEqual({ query: { limit: 50 }, types: { limit: 'number' } });
  });

  it.each([
    ['seats', '0x19', SEATS],
    ['seats', '1e1', SEATS],
    ['seats', ' 25', SEATS],
    ['seats', '25 ', SEATS],
    ['seats', '0b11', SEATS],
    ['seats', '0o7', SEATS],
    ['seats', '+5', SEATS],
    ['seats', '025', SEATS],
    ['seats', '25.0', SEATS],
    ['seats', '1.5', SEATS],
    ['seats', '', SEATS],
    ['seats', 'Infinity', SEATS],
    ['seats', '9007199254740993', SEATS],
    ['seats', '1_000', SEATS],
    ['seats', '٢٥', SEATS],
    ['ratio', '1e3', 'must be a number'],
    ['ratio', '.5', 'must be a number'],
    ['ratio', '5.', 'must be a number'],
    ['ratio', 'NaN', 'must be a number'],
    ['ratio', '0x10', 'must be a number'],
    ['flag', '1', 'must be true or false'],
    ['flag', 'TRUE', 'must be true or false'],
    ['flag', 'yes', 'must be true or false'],
    ['flag', '', 'must be true or false'],
    ['limit', '0', LIMIT],
    ['limit', '1e1', LIMIT],
  ])('%s=%s is a 400 naming the parameter', async (name, value, message) => {
    const response = await get(`/query?${name}=${encodeURIComponent(value)}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      error: `${name} ${message}`,
      details: [{ path: `querystring/${name}`, message }],
    });
  });

  it('refuses a repeated parameter that is not a list', async () => {
    const response = await get('/query?seats=1&seats=2');
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'querystring/seats', message: SEATS }]);
  });

  it('refuses a list with one non-canonical item, naming the item', async () => {
    const response = await get('/query?ids=1&ids=0x2');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      error: 'ids[1] must be a whole number',
      details: [{ path: 'querystring/ids/1', message: 'must be a whole number' }],
    });
  });
});

describe('path params are read the same way', () => {
  it('reads a canonical integer, also through a $ref schema', async () => {
    expect((await get('/items/12')).json()).toEqual({ position: 12 });
    expect((await get('/tags/7')).json()).toEqual({ params: { code: 7 } });
  });

  it.each(['0x0c', '1e1', '012', '%2012'])('refuses /items/%s naming the parameter', async (value) => {
    const response = await get(`/items/${value}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'validation_error',
      error: 'position must be a whole number of at least 0',
      details: [{ path: 'params/position', message: 'must be a whole number of at least 0' }],
    });
  });

  it('refuses a non-canonical value through a $ref schema', async () => {
    const response = await get('/tags/0x07');
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'params/code', message: 'must be a whole number of at least 0' }]);
  });
});

describe('JSON bodies are never converted', () => {
  it.each([
    [{ seats: '25' }, '/seats', 'must be a whole number'],
    [{ seats: 25, flag: 'true' }, '/flag', 'must be true or false'],
    [{ seats: [25] }, '/seats', 'must be a whole number'],
  ])('%j is a 400', async (payload, path, message) => {
    const response = await app.inject({ method: 'POST', url: '/body', payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path, message }]);
  });

  it('accepts typed values', async () => {
    const response = await app.inject({ method: 'POST', url: '/body', payload: { seats: 25, flag: true } });
    expect(response.json()).toEqual({ body: { seats: 25, flag: true } });
  });
});
