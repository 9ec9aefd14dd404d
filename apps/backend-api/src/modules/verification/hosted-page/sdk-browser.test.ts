import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DatabaseHandle, unitOfWork } from '@platform/db';
import { allowedOrigins } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { moveSession } from '@platform/verification-lifecycle';
import { browserModules } from '@platform/verify-web/serve';
import type { Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { buildTestApp, createTestOrganization, type TestOrganization } from '../../../../test/app-fixtures.js';
import { createSessionRequest, fundWallet, holdMovements, statusOf } from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';

// The front-end SDK (@platform/verify-web, as built) with the real hosted page, in headless Chromium: a shop's page on
// an allowed origin frames the page and hears its events; a page on any other origin cannot frame it; a popup
// reports back to the shop until the person closes it. The hosts are *.localhost, which Chromium treats as secure
// contexts, so it applies the pages' Cross-Origin-Opener-Policy as it would on https.

const VERIFY = 'http://verify.localhost';
const SHOP = 'http://shop.localhost';
const EVIL = 'http://evil.localhost';

/** A customer's page: the SDK, a button that opens the next verification in a popup, and a place for the iframe. */
const shopPage = `<!doctype html>
<html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title></head>
<body style="margin:0">
<button id="verify" type="button">Verify my identity</button>
<div id="verification" style="width:100%;height:640px"></div>
<script type="module">
import { startVerification } from '/sdk/index.js';
window.received = [];
const onEvent = (event) => window.received.push(event);
const container = document.getElementById('verification');
window.start = (url, mode) => (window.handle = startVerification(url, { mode, onEvent, container })).mode;
document.getElementById('verify').addEventListener('click', () => window.start(window.nextUrl, 'popup'));
window.ready = true;
</script>
</body></html>`;

type ShopWindow = Window & {
  received: unknown[];
  nextUrl: string;
  start(url: string, mode: string): string;
  handle: { close(): void };
};

describe.skipIf(missing(chromiumBrowser))('the hosted page opened by the front-end SDK, in headless Chromium', () => {
  let database: DatabaseHandle;
  let app: BackendApp;
  let shop: Server;
  let launched: Browser;
  /** Allows the shop's origin for its test and live sessions. */
  let acme: TestOrganization;
  /** Allows no origin. */
  let plain: TestOrganization;
  const modules = browserModules();

  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildTestApp(database, { env: { VERIFY_URL: VERIFY } });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port: verifyPort } = app.server.address() as AddressInfo;
    shop = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const module = path.startsWith('/sdk/') ? modules.get(path.slice('/sdk/'.length)) : undefined;
      if (module !== undefined) {
        response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(module);
      } else if (path === '/') {
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(shopPage);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    const { port: shopPort } = shop.address() as AddressInfo;

    acme = await createTestOrganization(database.db, 'Acme');
    plain = await createTestOrganization(database.db, 'Plain');
    for (const organization of [acme, plain]) {
      await fundWallet(database.db, organization.id, 'test', 1_000);
      await fundWallet(database.db, organization.id, 'live', 1_000);
    }
    await database.db.insert(allowedOrigins).values([
      { organizationId: acme.id, environment: 'test', origins: [SHOP] },
      { organizationId: acme.id, environment: 'live', origins: [SHOP] },
    ]);

    launched = await launchBrowser({
      javaScript: true,
      hostRules: [
        `MAP verify.localhost 127.0.0.1:${verifyPort}`,
        `MAP shop.localhost 127.0.0.1:${shopPort}`,
        `MAP evil.localhost 127.0.0.1:${shopPort}`,
      ],
    });
  });
  afterAll(async () => {
    await launched?.close();
    await app?.close();
    shop?.closeAllConnections();
    await new Promise((resolve) => shop?.close(resolve));
    await database?.close();
  });

  async function newSession(organization: TestOrganization, environment: 'test' | 'live', user: string) {
    const created = await createSessionRequest(
      app,
      environment === 'test' ? organization.testKey : organization.liveKey,
      {
        type: 'kyc',
        externalEndUserId: user,
        appName: 'Acme Wallet',
      },
    );
    expect(created.statusCode).toBe(201);
    return created.json().data as { sessionId: string; verificationUrl: string };
  }

  async function openShop(origin: string): Promise<Page> {
    const page = await launched.context.newPage();
    await page.setViewportSize(PHONE);
    await page.goto(`${origin}/`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    return page;
  }
  const received = (page: Page) => page.evaluate(() => (window as unknown as ShopWindow).received);
  const waitForEvents = (page: Page, count: number) =>
    page.waitForFunction((n) => (window as unknown as ShopWindow).received.length >= n, count);
  /** The iframe the SDK added, once it has loaded whatever it was allowed to load. */
  async function embeddedFrame(page: Page, verificationUrl: string): Promise<Frame> {
    const mode = await page.evaluate((url) => (window as unknown as ShopWindow).start(url, 'embed'), verificationUrl);
    expect(mode).toBe('embed');
    const element = await page.waitForSelector('#verification iframe');
    const frame = await element.contentFrame();
    if (frame === null) throw new Error('The SDK added no iframe');
    await expect.poll(() => frame.url()).not.toBe('about:blank');
    await frame.waitForLoadState();
    return frame;
  }

  it('embed: a page on an allowed origin frames the session and hears it submitted and completed', async () => {
    const { sessionId, verificationUrl } = await newSession(acme, 'test', 'embed-user');
    const page = await openShop(SHOP);
    const violations = policyViolationsOf(page);
    const frame = await embeddedFrame(page, verificationUrl);
    expect(frame.url()).toBe(`${verificationUrl}?sdk=embed&origin=http%3A%2F%2Fshop.localhost`);
    expect(await frame.getByRole('heading', { level: 1 }).textContent()).toBe('Before you start: your personal data');

    // The person works through the page inside the frame: plain forms, each answer a new page of the frame.
    await Promise.all([
      frame.waitForURL(/notice=consent_recorded/),
      frame.getByRole('button', { name: 'I agree' }).click(),
    ]);
    expect(await received(page)).toEqual([]);
    await Promise.all([frame.waitForURL(/notice=submitted/), frame.getByRole('button', { name: 'Submit' }).click()]);
    await waitForEvents(page, 1);
    await Promise.all([frame.waitForURL(/notice=approved/), frame.getByRole('button', { name: 'Approve' }).click()]);
    await waitForEvents(page, 2);
    expect(await received(page)).toEqual([
      { type: 'verification.submitted' },
      { type: 'verification.completed', status: 'verified' },
    ]);
    expect(frame.url()).toContain('sdk=embed&origin=http%3A%2F%2Fshop.localhost');
    expect(await frame.locator('#session-status').textContent()).toBe('Verified');
    expect(await statusOf(database.db, sessionId)).toBe('verified');
    expect(violations).toEqual([]);

    await page.evaluate(() => (window as unknown as ShopWindow).handle.close());
    expect(await page.locator('#verification iframe').count()).toBe(0);
    await page.close();
  });

  it('embed: a page on any other origin cannot frame the session, nor one of an organization that allows none', async () => {
    for (const [origin, organization, user] of [
      [EVIL, acme, 'refused-origin-user'],
      [SHOP, plain, 'no-origins-user'],
    ] as const) {
      const { verificationUrl } = await newSession(organization, 'test', user);
      const page = await openShop(origin);
      const violations = policyViolationsOf(page);
      const frame = await embeddedFrame(page, verificationUrl);
      // Chromium shows its own error page in the frame instead of the verification.
      expect(frame.url()).toMatch(/^chrome-error:/);
      expect(await frame.getByText('Before you start').count()).toBe(0);
      expect(violations.join('\n')).toContain('frame-ancestors');
      expect(await received(page)).toEqual([]);
      await page.close();
    }
  });

  it('popup: the shop hears a test session submitted and completed, then closed when the person closes it', async () => {
    const { sessionId, verificationUrl } = await newSession(acme, 'test', 'popup-user');
    const page = await openShop(SHOP);
    await page.evaluate((url) => Object.assign(window, { nextUrl: url }), verificationUrl);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Verify my identity' }).click(),
    ]);
    await popup.setViewportSize(PHONE);
    await popup.waitForLoadState();
    const violations = policyViolationsOf(popup);
    expect(await popup.getByRole('heading', { level: 1 }).textContent()).toBe('Before you start: your personal data');
    await expectPhoneFriendly(popup);

    // Each step is a form post and a 303 redirect: the popup stays the shop's popup through all of them.
    await Promise.all([
      popup.waitForURL(/notice=consent_recorded/),
      popup.getByRole('button', { name: 'I agree' }).click(),
    ]);
    await Promise.all([popup.waitForURL(/notice=submitted/), popup.getByRole('button', { name: 'Submit' }).click()]);
    await waitForEvents(page, 1);
    await expectPhoneFriendly(popup);
    await Promise.all([popup.waitForURL(/notice=approved/), popup.getByRole('button', { name: 'Approve' }).click()]);
    await waitForEvents(page, 2);
    expect(await received(page)).toEqual([
      { type: 'verification.submitted' },
      { type: 'verification.completed', status: 'verified' },
    ]);
    expect(await statusOf(database.db, sessionId)).toBe('verified');
    await expectPhoneFriendly(popup);
    expect(violations).toEqual([]);

    await popup.close();
    await waitForEvents(page, 3);
    expect((await received(page))[2]).toEqual({ type: 'verification.closed' });
    await page.close();
  });

  it('popup: a live session decided elsewhere shows the shop verification.completed when the page next loads', async () => {
    const { sessionId, verificationUrl } = await newSession(acme, 'live', 'popup-live-user');
    const page = await openShop(SHOP);
    await page.evaluate((url) => Object.assign(window, { nextUrl: url }), verificationUrl);
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('button', { name: 'Verify my identity' }).click(),
    ]);
    await popup.setViewportSize(PHONE);
    await Promise.all([
      popup.waitForURL(/notice=consent_recorded/),
      popup.getByRole('button', { name: 'I agree' }).click(),
    ]);

    // The decision is made away from the page (a provider's callback, a reviewer): here through the lifecycle.
    for (const to of ['processing', 'verified'] as const) {
      await unitOfWork(database.db, (work) =>
        moveSession(work, { sessionId, to, actor: 'test:decision', now: new Date() }, {}),
      );
    }
    // The processing page reloads itself every 10 s; the person's next load is the same.
    await popup.reload();
    expect(await popup.locator('#session-status').textContent()).toBe('Verified');
    await waitForEvents(page, 1);
    expect(await received(page)).toEqual([{ type: 'verification.completed', status: 'verified' }]);
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    await popup.close();
    await page.close();
  });
});
