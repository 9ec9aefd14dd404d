import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, createServer } from './create-server.js';
import { isStorableText } from './storable-text.js';

describe('isStorableText', () => {
  it.each([
    ['', true],
    ['Amina Wanjiru', true],
    ['\u202e\u0645\u0631\u062d\u0628\u0627', true],
    ['\ud83d\udc69\u200d\ud83d\udcbb', true],
    ['\ufffd', true],
    ['\u0001\u007f', true],
    ['a\u0000b', false],
    ['\u0000', false],
    ['\ud800', false],
    ['x\udc00', false],
    ['\udc00\ud800', false],
  ])('%j -> %s', (text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });
});

let app: AppServer | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const stored: unknown[] = [];

const routes: FastifyPluginAsyncTypebox = async (instance) => {
  instance.post(
    '/things/:id',
    {
      schema: {
        params: Type.Object({ id: Type.String() }),
        querystring: Type.Object({ tag: Type.Optional(Type.String()) }),
        body: Type.Object({
          name: Type.String(),
          notes: Type.Optional(Type.Array(Type.Object({ text: Type.String() }))),
        }),
      },
    },
    async (request) => {
      stored.push(request.body);
      return { success: true };
    },
  );
  // A provider's message: its text is kept, made storable by the handler.
  instance.post('/callback', { config: { sentByProvider: true } }, async (request) => {
    stored.push(request.body);
    return { success: true };
  });
  // Declares nothing about its input: the rule still holds.
  instance.get('/loose/:anything', async (request) => {
    stored.push(request.query);
    return { success: true };
  });
};

async function build(): Promise<AppServer> {
  stored.length = 0;
  app = createServer({ service: { name: 'test', version: '1', description: 'test' }, logger: false });
  app.register(routes);
  await app.ready();
  return app;
}

describe('unstorable text in a request', () => {
  it('is a 400 naming the body field, at any depth, and the handler never runs', async () => {
    const server = await build();
    const response = await server.inject({
      method: 'POST',
      url: '/things/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"ok","notes":[{"text":"fine"},{"text":"bad\\u0000"}]}',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'validation_error',
      details: [{ path: '/notes/1/text', message: 'must not contain U+0000 or unpaired UTF-16 surrogates' }],
    });
    expect(response.json().error).toBe('notes[1].text must not contain U+0000 or unpaired UTF-16 surrogates');
    expect(stored).toEqual([]);
  });

  it('refuses a lone surrogate written as a JSON escape, and an unstorable key', async () => {
    const server = await build();
    const surrogate = await server.inject({
      method: 'POST',
      url: '/things/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"\\ud800x"}',
    });
    expect(surrogate.statusCode).toBe(400);
    expect(surrogate.json().details).toEqual([{ path: '/name', message: expect.stringContaining('U+0000') }]);
    const key = await server.inject({
      method: 'POST',
      url: '/things/1',
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"ok","\\u0000":1}',
    });
    expect(key.statusCode).toBe(400);
    expect(stored).toEqual([]);
  });

  it('names path parameters, query values and headers', async () => {
    const server = await build();
    const response = await server.inject({
      method: 'POST',
      url: '/things/a%00b?tag=%00',
      headers: { 'content-type': 'application/json', 'x-custom': 'a\u0000b' },
      payload: { name: 'ok' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([
      { path: 'params/id', message: expect.any(String) },
      { path: 'querystring/tag', message: expect.any(String) },
      { path: 'headers/x-custom', message: expect.any(String) },
    ]);
    expect(stored).toEqual([]);
  });

  it('holds for routes that declare no schema', async () => {
    const server = await build();
    const response = await server.inject({ method: 'GET', url: '/loose/x?q=%00' });
    expect(response.statusCode).toBe(400);
    expect(response.json().details).toEqual([{ path: 'querystring/q', message: expect.any(String) }]);
    const fine = await server.inject({ method: 'GET', url: '/loose/x?q=%C3%A9' });
    expect(fine.statusCode).toBe(200);
    expect(stored).toEqual([{ q: 'é' }]);
  });

  it('keeps a percent-encoded lone surrogate in the query as the storable text it was sent as', async () => {
    // UTF-8 has no form for a surrogate, so %ED%A0%80 does not decode; the query parser leaves it as written.
    const server = await build();
    const response = await server.inject({ method: 'GET', url: '/loose/x?q=%ED%A0%80' });
    expect(response.statusCode).toBe(200);
    expect(stored).toEqual([{ q: '%ED%A0%80' }]);
  });

  it.each([
    [
      'FF FE C3 inside a string',
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]),
    ],
    ['a lone continuation byte', Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0x80]), Buffer.from('"}')])],
    [
      'an encoded surrogate (ED A0 80)',
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('"}')]),
    ],
    [
      'an overlong "/" (C0 AF)',
      Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]),
    ],
    ['a truncated sequence at the end', Buffer.concat([Buffer.from('{"name":"x"}'), Buffer.from([0xe2, 0x82])])],
    ['invalid bytes in a key', Buffer.concat([Buffer.from('{"name":"x","'), Buffer.from([0xfe]), Buffer.from('":1}')])],
  ])(
    'refuses a JSON body that is not UTF-8 (%s) with 400 invalid_json; the handler never runs',
    async (_label, payload) => {
      const server = await build();
      const response = await server.inject({
        method: 'POST',
        url: '/things/1',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        success: false,
        code: 'invalid_json',
        error: 'Request body is not valid UTF-8: send JSON encoded as UTF-8',
      });
      expect(stored).toEqual([]);
    },
  );

  it('reads every UTF-8 character a body may carry', async () => {
    const server = await build();
    const name = 'Wanjiru \u00e9\u4e2d\ud83d\udc69\u200d\ud83d\udcbb \ufffd';
    const response = await server.inject({
      method: 'POST',
      url: '/things/1',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: Buffer.from(JSON.stringify({ name }), 'utf8'),
    });
    expect(response.statusCode).toBe(200);
    expect(stored).toEqual([{ name }]);
  });

  it("keeps a provider's message that is not UTF-8, with replacement characters", async () => {
    const server = await build();
    const payload = Buffer.concat([Buffer.from('{"note":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    const response = await server.inject({
      method: 'POST',
      url: '/callback',
      headers: { 'content-type': 'application/json' },
      payload,
    });
    expect(response.statusCode).toBe(200);
    expect(stored).toEqual([{ note: '\ufffd' }]);
  });
});
