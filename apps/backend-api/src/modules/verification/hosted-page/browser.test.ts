import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DatabaseHandle } from '@platform/db';
import { webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { ensureWebhookEndpoint } from '@platform/webhooks';
import { eq } from 'drizzle-orm';
import { type BrowserContext, chromium } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumBrowser, chromiumPath, missing } from '#test-prerequisites';
import { buildTestApp, createTestOrganization, type TestOrganization } from '../../../../test/app-fixtures.js';
import { createSessionRequest, fundWallet, holdMovements, statusOf } from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';

// The page is opened at its real verificationUrl; Chromium resolves this host to the test server.
const VERIFY_HOST = 'verify.test';

describe.skipIf(missing(chromiumBrowser))('the hosted page in headless Chromium, without JavaScript', () => {
  let database: DatabaseHandle;
  let app: BackendApp;
  let acme: TestOrganization;
  let browser: BrowserContext;
  let userDataDir: string;
  // The customer's server: records every callback it receives.
  let receiver: Server;
  let callbackUrl: string;
  const callbacks: Array<{ body: string; headers: Record<string, string> }> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        callbacks.push({ body, headers: request.headers as Record<string, string> });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callbacks`;
    app = await buildTestApp(database, {
      env: { VERIFY_URL: `http://${VERIFY_HOST}`, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    acme = await createTestOrganization(database.db, 'Acme');
    await fundWallet(database.db, acme.id, 'test', 1_000);

    userDataDir = mkdtempSync(path.join(tmpdir(), 'hosted-page-chromium-'));
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: true,
      // The page must work with plain forms: no script runs in this browser.
      javaScriptEnabled: false,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-features=HttpsUpgrades',
        `--host-resolver-rules=MAP ${VERIFY_HOST} 127.0.0.1:${port}`,
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await app?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.close();
  });

  it('a tester completes a test session from pending to verified, and the signed callback arrives', async () => {
    const created = await createSessionRequest(app, acme.testKey, {
      type: 'kyc',
      externalEndUserId: 'browser-user',
      appName: 'Acme Wallet',
      callbackUrl,
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    expect(verificationUrl).toBe(`http://${VERIFY_HOST}/session/${sessionId}`);

    const page = await browser.newPage();
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });

    const opened = await page.goto(verificationUrl);
    expect(opened?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Waiting for documents: verify your identity');
    expect(await page.locator('#session-status').textContent()).toBe('Waiting for documents');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');

    // The only control on the page is reachable from the keyboard.
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Submit');

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=submitted`),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Processing');
    expect(await page.getByRole('status').textContent()).toBe('The documents were submitted for checking.');
    await expect(page.getByLabel('Reason for rejecting (optional)').isVisible()).resolves.toBe(true);

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=approved`),
      page.getByRole('button', { name: 'Approve' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Verified');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Verify your identity');
    expect(await page.getByRole('button').count()).toBe(0);

    // The inline styles were applied: the page-specific CSP allows them and nothing else.
    const statusBorder = await page
      .locator('#session-status')
      .evaluate((element) => getComputedStyle(element).borderTopColor);
    expect(statusBorder).toBe('rgb(74, 194, 107)');
    expect(policyViolations).toEqual([]);

    expect(await statusOf(database.db, sessionId)).toBe('verified');
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    const [event] = await database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.type, 'verification_session.verified'));
    expect(event).toMatchObject({ targetUrl: callbackUrl, environment: 'test' });

    // The delivery worker sends the outbox; the customer verifies each callback with the official library.
    await app.webhookDelivery.runOnce();
    const { secret } = await ensureWebhookEndpoint(database.db, { organizationId: acme.id, environment: 'test' });
    const received = callbacks.map(({ body, headers }) => new Webhook(secret).verify(body, headers)) as Array<{
      type: string;
      data: { sessionId: string; status: string; previousStatus: string | null };
    }>;
    expect(received.map((callback) => callback.type).sort()).toEqual([
      'verification_session.created',
      'verification_session.processing',
      'verification_session.verified',
    ]);
    expect(received.find((callback) => callback.type === 'verification_session.verified')?.data).toMatchObject({
      sessionId,
      status: 'verified',
      previousStatus: 'processing',
    });
    await page.close();
  });

  it('shows the friendly not-found page for an unknown session', async () => {
    const page = await browser.newPage();
    const response = await page.goto(`http://${VERIFY_HOST}/session/${crypto.randomUUID()}`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Verification not found');
    await page.close();
  });
});
