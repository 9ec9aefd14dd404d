import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserModules } from '@platform/verify-web/serve';
import { demoPage } from './sdk-demo-page.js';
import { localUrl } from './service-env.js';

// The front-end SDK's demo (docs/decisions.md#front-end-sdk): a page that plays a customer's web app, served by a small
// server that plays the customer's backend. The server creates a session with the demo organization's test key
// (a key never goes to a browser); the page opens it with @platform/verify-web and lists the events it hears. The
// end-to-end journeys (tools/e2e) serve the same page with the built SDK and a live key
// (docs/decisions.md#demo-page).

export interface SdkDemo {
  /** The demo page, e.g. http://localhost:3002; its origin is an allowed origin of the demo organization's tests. */
  url: string;
  stop(): Promise<void>;
}

interface DemoSettings {
  host: string;
  port: string;
  backendUrl: string;
  /** The key the customer's backend creates sessions with: the demo organization's test key on the local start. */
  apiKey: string;
  /** Whether a session may take this page as its returnUrl (http on this machine). */
  returnHere: boolean;
  /** Fields the customer's backend adds to each session it creates (its user's id, its callbackUrl). */
  session?: Record<string, unknown>;
  /** The SDK's modules by file name; by default compiled from the sources (browserModules). */
  modules?: ReadonlyMap<string, string>;
  /**
   * Origins the page is opened at besides its own URL's (the browser tests' `http://shop.localhost`, mapped to this
   * server): the only ones whose pages may ask for a session.
   */
  pageOrigins?: readonly string[];
}

export async function startSdkDemo(settings: DemoSettings): Promise<SdkDemo> {
  const modules = settings.modules ?? browserModules();
  let url = '';
  /** Where the demo page itself is served: its URL, and the address the server listens on. */
  let ownOrigins: ReadonlySet<string> = new Set();
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      console.error('SDK demo:', error);
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end('The backend API did not create a session: is it running?');
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const path = new URL(request.url ?? '/', 'http://demo').pathname;
    const module = path.startsWith('/sdk/') ? modules.get(path.slice('/sdk/'.length)) : undefined;
    if (request.method === 'GET' && module !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(module);
    } else if (request.method === 'GET' && path === '/') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(demoPage);
    } else if (request.method === 'POST' && path === '/session') {
      // Only the demo page may ask: another site's page (or a script with no Origin) would make it hold money for a
      // session nobody asked for. Browsers send Origin with every POST, their own pages' too.
      if (!ownOrigins.has(request.headers.origin ?? '')) {
        response.writeHead(403, { 'content-type': 'text/plain' }).end('Only the demo page may create sessions here.');
        return;
      }
      // What a customer's backend does: create the session, hand only its verificationUrl to the browser.
      const created = await fetch(`${settings.backendUrl}/v1/verify/sessions`, {
        method: 'POST',
        headers: { 'x-service-api-key': settings.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          type: 'kyc',
          externalEndUserId: 'sdk-demo-visitor',
          appName: 'SDK demo shop',
          ...(settings.returnHere ? { returnUrl: `${url}/?returned=1` } : {}),
          ...settings.session,
        }),
      });
      const body = (await created.json()) as { data?: { verificationUrl?: string } };
      const verificationUrl = body.data?.verificationUrl;
      if (!created.ok || verificationUrl === undefined) throw new Error(`session not created: ${created.status}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ verificationUrl }));
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  }

  await new Promise<void>((resolve) => server.listen(Number(settings.port), settings.host, resolve));
  const { address, port } = server.address() as AddressInfo;
  const listening = `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
  url = localUrl(listening);
  ownOrigins = new Set([new URL(url).origin, new URL(listening).origin, ...(settings.pageOrigins ?? [])]);
  return {
    url,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Adds the demo page's origin to the demo organization's allowed origins for `environment`'s sessions (test by
 * default), through main-api as a customer's developer would, keeping any already there. Says why when it cannot
 * (ten already, an old data folder).
 */
export async function allowDemoOrigin(options: {
  mainUrl: string;
  token: string;
  organizationId: string;
  origin: string;
  environment?: 'live' | 'test';
}): Promise<void> {
  const environment = options.environment ?? 'test';
  const route = `${options.mainUrl}/v1/organizations/${options.organizationId}/allowed-origins`;
  const headers = { authorization: `Bearer ${options.token}`, 'content-type': 'application/json' };
  const current = (await (await fetch(route, { headers })).json()) as { data?: Record<string, string[]> };
  const origins = current.data?.[environment] ?? [];
  if (origins.includes(options.origin)) return;
  const answer = await fetch(`${route}/${environment}`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ origins: [...origins, options.origin] }),
  });
  if (!answer.ok) {
    console.warn(
      `The SDK demo's origin ${options.origin} could not be allowed (${answer.status}): ${await answer.text()}`,
    );
  }
}
