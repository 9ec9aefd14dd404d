import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, launchBrowser } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { browserModules } from './serve.js';

// The SDK as built, in headless Chromium, between three sites: a shop (http://shop.test) that opens a verification,
// a stand-in for the hosted page (http://verify.test) that posts the events its URL lists, and a stranger
// (http://evil.test). The real hosted page is tested with the SDK in backend-api's hosted-page/sdk-browser.test.ts.

const SHOP = 'http://shop.test';
const VERIFY = 'http://verify.test';

const shopPage = `<!doctype html>
<html lang="en"><head><title>Shop</title></head>
<body>
<button id="popup" type="button">Verify in a popup</button>
<div id="verification" style="width:360px;height:400px"></div>
<script type="module">
import { startVerification } from '/sdk/index.js';
window.received = [];
const onEvent = (event) => window.received.push(event);
const container = document.getElementById('verification');
window.start = (url, mode) => {
  window.handle = startVerification(url, { mode, onEvent, container });
  return window.handle.mode;
};
document.getElementById('popup').addEventListener('click', () => window.start(window.nextUrl, 'popup'));
window.ready = true;
</script>
</body></html>`;

/**
 * The hosted page's stand-in: posts each event of `?post=` (JSON) to its opener (sdk=popup) or parent, to
 * `?target=` or else the origin the SDK named.
 */
const standInPage = `<!doctype html>
<html lang="en"><head><title>Verification</title></head><body><h1>Verification</h1>
<script>
const query = new URLSearchParams(location.search);
const to = query.get('sdk') === 'popup' ? window.opener : window.parent;
for (const event of JSON.parse(query.get('post') || '[]')) to.postMessage(event, query.get('target') || query.get('origin'));
document.title = 'posted';
</script></body></html>`;

describe.skipIf(missing(chromiumBrowser))('the SDK in headless Chromium', () => {
  let server: Server;
  let launched: Browser;
  const modules = browserModules();

  beforeAll(async () => {
    server = createServer((request, response) => {
      const host = request.headers.host?.split(':')[0];
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const send = (type: string, body: string) => response.writeHead(200, { 'content-type': type }).end(body);
      const module = path.startsWith('/sdk/') ? modules.get(path.slice('/sdk/'.length)) : undefined;
      if (module !== undefined) return send('text/javascript; charset=utf-8', module);
      if (host === 'shop.test' && path === '/') return send('text/html; charset=utf-8', shopPage);
      if ((host === 'verify.test' || host === 'evil.test') && path.startsWith('/session/')) {
        return send('text/html; charset=utf-8', standInPage);
      }
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    launched = await launchBrowser({ javaScript: true, hostRules: [`MAP *.test 127.0.0.1:${port}`] });
  });
  afterAll(async () => {
    await launched?.close();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function openShop(): Promise<Page> {
    const page = await launched.context.newPage();
    await page.goto(`${SHOP}/`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    return page;
  }
  const received = (page: Page) => page.evaluate(() => (window as unknown as { received: unknown[] }).received);
  const posting = (events: object[], extra = '') =>
    `${VERIFY}/session/abc?post=${encodeURIComponent(JSON.stringify(events))}${extra}`;

  it('popup: the shop hears the events the verification posts, and verification.closed when the person closes it', async () => {
    const page = await openShop();
    const url = posting([
      { type: 'verification.submitted' },
      { type: 'verification.completed', status: 'verified', extra: 'dropped' },
      { type: 'verification.completed', status: 'pending' },
    ]);
    await page.evaluate((next) => Object.assign(window, { nextUrl: next }), url);
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.click('#popup')]);
    await popup.waitForFunction(() => document.title === 'posted');
    expect(new URL(popup.url()).searchParams.get('origin')).toBe(SHOP);
    expect(new URL(popup.url()).searchParams.get('sdk')).toBe('popup');
    await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length >= 2);
    expect(await received(page)).toEqual([
      { type: 'verification.submitted' },
      { type: 'verification.completed', status: 'verified' },
    ]);

    await popup.close();
    await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length >= 3);
    expect((await received(page))[2]).toEqual({ type: 'verification.closed' });
    await page.close();
  });

  it("embed: the shop hears its own frame only, not a stranger's frame nor another frame of the verification's site", async () => {
    const page = await openShop();
    const mode = await page.evaluate(
      (url) => (window as unknown as { start: (url: string, mode: string) => string }).start(url, 'embed'),
      posting([{ type: 'verification.completed', status: 'rejected' }]),
    );
    expect(mode).toBe('embed');
    const frame = page.locator('#verification iframe');
    expect(await frame.getAttribute('title')).toBe('Identity verification');
    await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length >= 1);

    // A stranger's frame, posting to anyone, and a second frame of the verification's own site that the SDK did not
    // open: both ignored.
    const loaded = async (url: string) => {
      await page.evaluate((src) => {
        const other = document.createElement('iframe');
        other.src = src;
        document.body.append(other);
      }, url);
    };
    await loaded(
      `http://evil.test/session/abc?post=${encodeURIComponent('[{"type":"verification.closed"}]')}&target=*`,
    );
    await loaded(posting([{ type: 'verification.closed' }]));
    await expect.poll(() => page.frames().filter((candidate) => candidate.url().includes('/session/')).length).toBe(3);
    for (const candidate of page.frames().slice(1)) await candidate.waitForFunction(() => document.title === 'posted');
    // Then the SDK's own frame posts once more: whatever the strangers' messages did, they did before this one.
    await page.evaluate(() => {
      const own = document.querySelector<HTMLIFrameElement>('#verification iframe');
      if (own === null) throw new Error('no frame');
      const next = new URL(own.src);
      next.searchParams.set('post', '[{"type":"verification.submitted"}]');
      own.src = next.href;
    });
    await page.waitForFunction(() => (window as unknown as { received: unknown[] }).received.length >= 2);
    expect(await received(page)).toEqual([
      { type: 'verification.completed', status: 'rejected' },
      { type: 'verification.submitted' },
    ]);

    await page.evaluate(() => (window as unknown as { handle: { close(): void } }).handle.close());
    expect(await frame.count()).toBe(0);
    await page.close();
  });

  it('redirect: the tab goes to the verification, without the SDK parameters', async () => {
    const page = await openShop();
    const url = posting([]);
    await Promise.all([
      page.waitForURL(url),
      page.evaluate(
        (next) => (window as unknown as { start: (url: string, mode: string) => string }).start(next, 'redirect'),
        url,
      ),
    ]);
    expect(new URL(page.url()).searchParams.has('sdk')).toBe(false);
    await page.close();
  });
});
