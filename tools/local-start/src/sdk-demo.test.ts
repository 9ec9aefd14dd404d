import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { allowDemoOrigin, type SdkDemo, startSdkDemo } from './sdk-demo.js';

// The SDK demo's server against stand-ins for the two APIs: what it serves, the session it creates as a customer's
// backend would, and the allowed origin it adds. The whole local start runs it in local-start.test.ts.

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in API: records each request and answers with `answer(request)`. */
async function standIn(answer: (request: Received) => { status: number; body: unknown }) {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const entry = { method: request.method, url: request.url, headers: request.headers, body };
      received.push(entry);
      const { status, body: reply } = answer(entry);
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const stop = (server: Server) => new Promise((resolve) => server.close(resolve));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the SDK demo server', () => {
  let backend: Awaited<ReturnType<typeof standIn>>;
  let demo: SdkDemo;
  let backendFails = false;

  beforeAll(async () => {
    backend = await standIn(() =>
      backendFails
        ? { status: 503, body: { success: false } }
        : { status: 201, body: { success: true, data: { verificationUrl: 'http://localhost:9/session/abc' } } },
    );
    demo = await startSdkDemo({
      host: '127.0.0.1',
      port: '0',
      backendUrl: backend.url,
      apiKey: 'sk_test_demo',
      returnHere: true,
    });
  });
  afterAll(async () => {
    await demo?.stop();
    await stop(backend.server);
  });

  it('serves its page on localhost and the SDK as ES modules', async () => {
    expect(demo.url).toMatch(/^http:\/\/localhost:\d+$/);
    const page = await fetch(`${demo.url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("import { startVerification } from '/sdk/index.js';");
    expect(html).toContain('<button type="button" data-mode="popup">Verify in a popup</button>');
    const sdk = await fetch(`${demo.url}/sdk/index.js`);
    expect(sdk.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await sdk.text()).toContain('export function startVerification(');
    expect((await fetch(`${demo.url}/sdk/serve.js`)).status).toBe(404);
    expect((await fetch(`${demo.url}/elsewhere`)).status).toBe(404);
  });

  /** POST /session as the demo page's script sends it: the browser adds the page's origin (null: none). */
  const askForSession = (url: string, origin: string | null = url) =>
    fetch(`${url}/session`, { method: 'POST', headers: origin === null ? {} : { origin } });

  it('creates a test session with the test key, and gives the browser its verificationUrl only', async () => {
    const answer = await askForSession(demo.url);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ verificationUrl: 'http://localhost:9/session/abc' });
    const request = backend.received.at(-1);
    expect(request).toMatchObject({ method: 'POST', url: '/v1/verify/sessions' });
    expect(request?.headers['x-service-api-key']).toBe('sk_test_demo');
    expect(JSON.parse(request?.body ?? '')).toEqual({
      type: 'kyc',
      externalEndUserId: 'sdk-demo-visitor',
      appName: 'SDK demo shop',
      returnUrl: `${demo.url}/?returned=1`,
    });
  });

  it("adds the customer's own session fields, and serves the SDK modules it is given", async () => {
    const custom = await startSdkDemo({
      host: '127.0.0.1',
      port: '0',
      backendUrl: backend.url,
      apiKey: 'sk_live_shop',
      returnHere: false,
      session: { externalEndUserId: 'user_42', callbackUrl: 'https://shop.example/callbacks' },
      modules: new Map([['index.js', 'export const built = true;\n']]),
    });
    try {
      expect((await askForSession(custom.url)).status).toBe(200);
      const request = backend.received.at(-1);
      expect(request?.headers['x-service-api-key']).toBe('sk_live_shop');
      expect(JSON.parse(request?.body ?? '')).toEqual({
        type: 'kyc',
        externalEndUserId: 'user_42',
        appName: 'SDK demo shop',
        callbackUrl: 'https://shop.example/callbacks',
      });
      expect(await (await fetch(`${custom.url}/sdk/index.js`)).text()).toBe('export const built = true;\n');
      expect((await fetch(`${custom.url}/sdk/start.js`)).status).toBe(404);
    } finally {
      await custom.stop();
    }
  });

  it("refuses with 403 a request from any other site's page, or with no origin, and creates nothing", async () => {
    const before = backend.received.length;
    const port = new URL(demo.url).port;
    for (const origin of [
      'https://evil.example',
      'null',
      `http://localhost:${Number(port) + 1}`,
      `https://localhost:${port}`,
      `${demo.url}/`,
      null,
    ]) {
      const answer = await askForSession(demo.url, origin);
      expect(answer.status, String(origin)).toBe(403);
      expect(await answer.text()).toBe('Only the demo page may create sessions here.');
    }
    expect(backend.received.length).toBe(before);
    // The page at the address the server listens on is the demo page too.
    expect((await askForSession(demo.url, `http://127.0.0.1:${port}`)).status).toBe(200);
  });

  it('takes requests from the origins it is told the page is opened at', async () => {
    const shop = await startSdkDemo({
      host: '127.0.0.1',
      port: '0',
      backendUrl: backend.url,
      apiKey: 'sk_test_demo',
      returnHere: false,
      pageOrigins: ['http://shop.localhost'],
    });
    try {
      expect((await askForSession(shop.url, 'http://shop.localhost')).status).toBe(200);
      expect((await askForSession(shop.url, 'http://other.localhost')).status).toBe(403);
    } finally {
      await shop.stop();
    }
  });

  it('says so when the backend API creates no session', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    backendFails = true;
    try {
      const answer = await askForSession(demo.url);
      expect(answer.status).toBe(502);
      expect(await answer.text()).toBe('The backend API did not create a session: is it running?');
    } finally {
      backendFails = false;
    }
  });
});

describe('allowDemoOrigin', () => {
  it("adds the demo's origin to the test list through main-api, keeping the others, and only once", async () => {
    let test = ['https://shop.example'];
    const main = await standIn((request) => {
      if (request.method === 'PUT') test = JSON.parse(request.body).origins;
      return { status: 200, body: { success: true, data: { live: [], test } } };
    });
    try {
      const options = { mainUrl: main.url, token: 't_owner', organizationId: 'o', origin: 'http://localhost:3002' };
      await allowDemoOrigin(options);
      await allowDemoOrigin(options);
      expect(main.received.map((request) => `${request.method} ${request.url}`)).toEqual([
        'GET /v1/organizations/o/allowed-origins',
        'PUT /v1/organizations/o/allowed-origins/test',
        'GET /v1/organizations/o/allowed-origins',
      ]);
      expect(main.received[1]?.headers.authorization).toBe('Bearer t_owner');
      expect(test).toEqual(['https://shop.example', 'http://localhost:3002']);
    } finally {
      await stop(main.server);
    }
  });

  it('adds it to the live list when asked to, leaving the test list alone', async () => {
    const lists = { live: [] as string[], test: ['http://localhost:3002'] };
    const main = await standIn((request) => {
      if (request.method === 'PUT') lists.live = JSON.parse(request.body).origins;
      return { status: 200, body: { success: true, data: lists } };
    });
    try {
      await allowDemoOrigin({
        mainUrl: main.url,
        token: 't_developer',
        organizationId: 'o',
        origin: 'http://shop.localhost',
        environment: 'live',
      });
      expect(main.received.map((request) => `${request.method} ${request.url}`)).toEqual([
        'GET /v1/organizations/o/allowed-origins',
        'PUT /v1/organizations/o/allowed-origins/live',
      ]);
      expect(lists).toEqual({ live: ['http://shop.localhost'], test: ['http://localhost:3002'] });
    } finally {
      await stop(main.server);
    }
  });

  it('warns, and goes on, when main-api refuses', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const main = await standIn((request) =>
      request.method === 'PUT'
        ? { status: 400, body: { success: false, error: 'too many' } }
        : { status: 200, body: { success: true, data: { live: [], test: [] } } },
    );
    try {
      await allowDemoOrigin({ mainUrl: main.url, token: 't', organizationId: 'o', origin: 'http://localhost:3002' });
      expect(warn.mock.calls[0]?.[0]).toContain(
        "The SDK demo's origin http://localhost:3002 could not be allowed (400)",
      );
    } finally {
      await stop(main.server);
    }
  });
});
