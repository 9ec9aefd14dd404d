import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { type AppServer, createServer } from './create-server.js';

// The request log line, for routes whose URL carries a secret and for the rest.

const TOKEN = 'callback-token-7f3a9c2e5b1d4e8f';
const apps: AppServer[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

async function build() {
  const lines: Array<Record<string, unknown>> = [];
  const app = createServer({
    service: { name: 'request-log-test', version: '0', description: 'test' },
    logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) }),
  });
  app.register(async (routes) => {
    // Quiet at info, like a callback whose URL is its secret; its answer fails after it is sent.
    routes.post('/callbacks/:token', { logLevel: 'warn', config: { public: true, urlCarriesSecret: true } }, async () => ({ ok: true }));
    routes.post('/plain/:id', async () => ({ ok: true }));
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

  it('keeps the URL as requested for other routes', async () => {
    const { app, lines } = await build();
    await app.inject({ method: 'POST', url: '/plain/42?fail=yes', payload: {} });
    await app.inject({ method: 'POST', url: '/plain/43', payload: {} });
    expect(lines.filter((line) => typeof line['url'] === 'string').map((line) => [line['msg'], line['url']])).toEqual([
      ['request errored', '/plain/42?fail=yes'],
      ['request completed', '/plain/43'],
    ]);
  });
});
