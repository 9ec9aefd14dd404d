import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, createServer } from './create-server.js';

// What the logs keep of a request: the request line, for routes whose URL carries a secret, for requests that
// look like them and for the rest, and the redaction of errors and headers a line may carry.

const TOKEN = 'callback-token-7f3a9c2e5b1d4e8f';
const SIGNING_SECRET = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==';
const API_KEY = 'sk_live_Zm9yLXRlc3RzLW9ubHktbm90LWEtcmVhbC1rZXk';
const apps: AppServer[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** The app under test, logging every line: to a pino instance, or (`options`) through Fastify's logger options. */
async function build({ through = 'instance' }: { through?: 'instance' | 'options' } = {}) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
  const app = createServer({
    service: { name: 'request-log-test', version: '0', description: 'test' },
    logger: through === 'instance' ? pino({ level: 'trace' }, stream) : { level: 'trace', stream },
  });
  app.register(async (routes) => {
    // Quiet at info, like a callback whose URL is its secret; its answer fails after it is sent.
    routes.post(
      '/callbacks/:token',
      { logLevel: 'warn', config: { public: true, urlCarriesSecret: true } },
      async () => ({ ok: true }),
    );
    // A page whose URL is its credential, logged at info.
    routes.get('/pages/:id', { config: { public: true, urlCarriesSecret: true } }, async () => ({ ok: true }));
    routes.post('/plain/:id', async () => ({ ok: true }));
    // Fails the way a library might: its message quotes the URL and a credential.
    routes.get('/broken', async (request) => {
      throw new Error(
        `could not fetch https://api.example.com${String(request.headers['x-target'])} with ${String(request.headers.authorization)}`,
      );
    });
    // Fails like a database query: its message and fields carry the statement's parameters.
    routes.get('/query-failed', async () => {
      const cause = Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' });
      throw Object.assign(
        new Error(
          `Failed query: insert into endpoints (secret, url) values ($1, $2)\nparams: ${SIGNING_SECRET},https://x.example/cb`,
        ),
        {
          query: 'insert into endpoints (secret, url) values ($1, $2)',
          params: [SIGNING_SECRET, 'https://x.example/cb'],
          cause,
        },
      );
    });
    // Logs the request headers, at the top of a line and inside options, as a plugin might (at trace level).
    routes.get('/logs-headers', async (request) => {
      request.log.trace({ parserOptions: { headers: request.headers, limit: 3 } }, 'parser options');
      request.log.debug({ headers: request.headers }, 'request headers');
      return { ok: true };
    });
    routes.addHook('onResponse', async (request) => {
      if ((request.query as { fail?: string }).fail === 'yes') throw new Error('the response could not be finished');
    });
  });
  apps.push(app);
  await app.ready();
  return { app, lines };
}

describe('the request log line', () => {
  it("names the route pattern, not the URL, when a route's URL carries a secret, even on an error line", async () => {
    const { app, lines } = await build();
    const response = await app.inject({ method: 'POST', url: `/callbacks/${TOKEN}?fail=yes`, payload: {} });
    expect(response.statusCode).toBe(200);
    const errored = lines.filter((line) => line['msg'] === 'request errored');
    expect(errored).toEqual([expect.objectContaining({ level: 50, method: 'POST', url: '/callbacks/:token' })]);
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it('names the pattern for a page whose URL is its credential, without its query string', async () => {
    const { app, lines } = await build();
    await app.inject({ method: 'GET', url: `/pages/${TOKEN}?notice=done` });
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'request completed', url: '/pages/:id', statusCode: 200 }),
    );
    expect(JSON.stringify(lines)).not.toContain(TOKEN);
  });

  it.each([
    ['GET', `/callbacks/${TOKEN}`, '/callbacks/:token'],
    ['POST', `/callbacks/${TOKEN}/`, '/callbacks/:token'],
    ['POST', `/CALLBACKS/${TOKEN}`, '/callbacks/:token'],
    ['POST', `//callbacks//${TOKEN}?from=provider`, '/callbacks/:token'],
    ['POST', `/callbacks%2F${TOKEN}`, '/callbacks/:token'],
    ['DELETE', `/pages/${TOKEN}`, '/pages/:id'],
    ['GET', `/pages/${TOKEN}/more`, '/pages/:id'],
  ])(
    'names the pattern for %s %s, which matches no route but looks like a secret-carrying one',
    async (method, url, pattern) => {
      const { app, lines } = await build();
      const response = await app.inject({
        method: method as 'GET',
        url,
        ...(method === 'POST' ? { payload: {} } : {}),
      });
      expect(response.statusCode).toBe(404);
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: 'request completed', method, url: pattern, statusCode: 404 }),
      );
      expect(JSON.stringify(lines)).not.toContain(TOKEN);
    },
  );

  it.each(['instance', 'options'] as const)(
    'redacts secret-carrying URLs and credentials quoted by an error message (logger given as %s)',
    async (through) => {
      const { app, lines } = await build({ through });
      const response = await app.inject({
        method: 'GET',
        url: '/broken',
        headers: { 'x-target': `/Callbacks/${TOKEN}?retry=1`, authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(500);
      const [logged] = lines.filter((line) => line['msg'] === 'request failed with a server error');
      const err = logged?.['err'] as { message: string; stack: string };
      expect(err.message).toBe('could not fetch https://api.example.com/callbacks/:token with Bearer [redacted]');
      expect(err.stack).toContain('could not fetch https://api.example.com/callbacks/:token with Bearer [redacted]');
      expect(JSON.stringify(lines)).not.toContain(TOKEN);
    },
  );

  it.each(['instance', 'options'] as const)(
    'redacts credential headers a line carries (logger given as %s)',
    async (through) => {
      const { app, lines } = await build({ through });
      const headers = {
        authorization: `Bearer ${TOKEN}`,
        'x-service-api-key': API_KEY,
        cookie: `session=${TOKEN}`,
        'x-trace': 'kept',
      };
      expect((await app.inject({ method: 'GET', url: '/logs-headers', headers })).statusCode).toBe(200);
      const redacted = {
        authorization: '[redacted]',
        'x-service-api-key': '[redacted]',
        cookie: '[redacted]',
        'x-trace': 'kept',
      };
      expect(lines).toContainEqual(
        expect.objectContaining({
          msg: 'parser options',
          parserOptions: { headers: expect.objectContaining(redacted), limit: 3 },
        }),
      );
      expect(lines).toContainEqual(
        expect.objectContaining({ msg: 'request headers', headers: expect.objectContaining(redacted) }),
      );
      expect(JSON.stringify(lines)).not.toContain(TOKEN);
      expect(JSON.stringify(lines)).not.toContain(API_KEY);
    },
  );

  it("keeps a failed query's statement but not its parameters", async () => {
    const { app, lines } = await build();
    expect((await app.inject({ method: 'GET', url: '/query-failed' })).statusCode).toBe(500);
    const [logged] = lines.filter((line) => line['msg'] === 'request failed with a server error');
    expect(logged?.['err']).toMatchObject({
      message:
        'Failed query: insert into endpoints (secret, url) values ($1, $2)\nparams: [redacted]: duplicate key value violates unique constraint',
      query: 'insert into endpoints (secret, url) values ($1, $2)',
      params: '[redacted]',
    });
    expect(JSON.stringify(lines)).not.toContain('c2VjcmV0');
    expect(JSON.stringify(lines)).not.toContain('x.example');
  });

  it('masks an API key or token a client put in the query string of an ordinary URL', async () => {
    const { app, lines } = await build();
    await app.inject({ method: 'POST', url: `/plain/42?api_key=${API_KEY}&page=2`, payload: {} });
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'request completed', url: '/plain/42?api_key=sk_live_[redacted]&page=2' }),
    );
  });

  it('keeps the URL as requested for other routes', async () => {
    const { app, lines } = await build();
    await app.inject({ method: 'POST', url: '/plain/42?fail=yes', payload: {} });
    await app.inject({ method: 'POST', url: '/plain/43', payload: {} });
    await app.inject({ method: 'GET', url: '/Plain//44/?q=1' });
    await app.inject({ method: 'GET', url: '/callbacks' });
    expect(lines.filter((line) => typeof line['url'] === 'string').map((line) => [line['msg'], line['url']])).toEqual([
      ['request errored', '/plain/42?fail=yes'],
      ['request completed', '/plain/43'],
      ['request completed', '/Plain//44/?q=1'],
      ['request completed', '/callbacks'],
    ]);
  });
});
