import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { browserModules } from '@platform/verify-web/serve';
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

const demoPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Verification SDK demo</title>
<link rel="icon" href="data:,">
<style>
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1f2328;background:#f4f5f7}
main{max-width:40rem;margin:0 auto;padding:1rem}
.choices{display:flex;flex-wrap:wrap;gap:.75rem}
button{min-height:2.75rem;padding:.5rem 1rem;font:inherit;font-weight:600;border-radius:6px;border:1px solid #8c959f;background:#fff;color:#1f2328;cursor:pointer}
button:focus-visible{outline:3px solid #0969da;outline-offset:2px}
#verification:not(:empty){height:44rem;margin-top:1rem;background:#fff}
code,li{overflow-wrap:anywhere}
</style>
</head>
<body>
<main>
<h1>Verification SDK demo</h1>
<p>This page plays a customer's web app. Its server creates a KYC session of the demo organization, and
<code>@platform/verify-web</code> opens it; finish the verification there and watch the events arrive here.</p>
<noscript><p>This demo needs JavaScript: the SDK is a script. The verification page itself works without it.</p></noscript>
<div class="choices">
<button type="button" data-mode="popup">Verify in a popup</button>
<button type="button" data-mode="embed">Verify in this page</button>
<button type="button" data-mode="redirect">Verify in this tab</button>
</div>
<p id="returned" hidden>You are back from the verification. Your server would now check the session's status.</p>
<h2>Events</h2>
<ol id="events" aria-live="polite"></ol>
<div id="verification"></div>
</main>
<script type="module">
import { startVerification } from '/sdk/index.js';
const events = document.getElementById('events');
const container = document.getElementById('verification');
document.getElementById('returned').hidden = !location.search.includes('returned');
let current;
for (const button of document.querySelectorAll('button[data-mode]')) {
  button.addEventListener('click', async () => {
    current?.close();
    const answer = await fetch('/session', { method: 'POST' });
    if (!answer.ok) return say(await answer.text());
    const { verificationUrl } = await answer.json();
    current = startVerification(verificationUrl, {
      mode: button.dataset.mode,
      container,
      onEvent: (event) => say(JSON.stringify(event)),
    });
    if (current.mode !== button.dataset.mode) say('The popup was blocked: this tab opens the verification.');
  });
}
function say(text) {
  const item = document.createElement('li');
  item.textContent = text;
  events.append(item);
}
</script>
</body>
</html>
`;
