import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DatabaseHandle, unitOfWork } from '@platform/db';
import { verificationConsents, verificationDocuments, webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { moveSession } from '@platform/verification-lifecycle';
import { ensureWebhookEndpoint } from '@platform/webhooks';
import { eq } from 'drizzle-orm';
import type { BrowserContext } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { buildTestApp, createTestOrganization, type TestOrganization } from '../../../../test/app-fixtures.js';
import { pngImage, temporaryVault } from '../../../../test/document-fixtures.js';
import { createSessionRequest, fundWallet, holdMovements, statusOf } from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';

// The page is opened at its real verificationUrl; Chromium resolves this host to the test server.
const VERIFY_HOST = 'verify.test';
describe.skipIf(missing(chromiumBrowser))('the hosted page in headless Chromium, without JavaScript', () => {
  let database: DatabaseHandle;
  let app: BackendApp;
  let acme: TestOrganization;
  let launched: Browser;
  let browser: BrowserContext;
  // The customer's server: records every callback it receives.
  let receiver: Server;
  let callbackUrl: string;
  const callbacks: Array<{ body: string; headers: Record<string, string> }> = [];
  let removeVault: () => Promise<void>;
  // The app's clock: real time, moved on by a test that needs a later moment without waiting for it.
  let clockOffsetMs = 0;
  const now = () => new Date(Date.now() + clockOffsetMs);

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
    const { vault, remove } = await temporaryVault();
    removeVault = remove;
    app = await buildTestApp(database, {
      now,
      vault,
      env: { VERIFY_URL: `http://${VERIFY_HOST}`, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    acme = await createTestOrganization(database.db, 'Acme');
    await fundWallet(database.db, acme.id, 'test', 1_000);
    await fundWallet(database.db, acme.id, 'live', 1_000);

    // The page must work with plain forms: no script runs in this browser.
    launched = await launchBrowser({ hostRules: [`MAP ${VERIFY_HOST} 127.0.0.1:${port}`] });
    browser = launched.context;
  });
  afterAll(async () => {
    await launched?.close();
    await app?.close();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.close();
    await removeVault?.();
  });

  it('a person reads the consent in Kiswahili, switches to English and agrees; a tester then completes the session, and the signed callback arrives', async () => {
    const created = await createSessionRequest(app, acme.testKey, {
      type: 'kyc',
      externalEndUserId: 'browser-user',
      appName: 'Acme Wallet',
      callbackUrl,
      locale: 'sw',
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    expect(verificationUrl).toBe(`http://${VERIFY_HOST}/session/${sessionId}`);

    const page = await browser.newPage();
    await page.setViewportSize(PHONE);
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });

    // Consent comes first, in the session's language.
    const opened = await page.goto(verificationUrl);
    expect(opened?.status()).toBe(200);
    await expect(page.title()).resolves.toBe('Kabla hujaanza: taarifa zako binafsi');
    expect(await page.locator('html').getAttribute('lang')).toBe('sw');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Kabla hujaanza: taarifa zako binafsi');
    await expect(page.getByRole('button', { name: 'Nakubali' }).isVisible()).resolves.toBe(true);
    expect(await page.locator('#session-status').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Wasilisha' }).count()).toBe(0);
    await expectPhoneFriendly(page);

    // The language switch is a plain link.
    await Promise.all([
      page.waitForURL(`${verificationUrl}?lang=en`),
      page.getByRole('link', { name: 'English' }).click(),
    ]);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    await expect(page.title()).resolves.toBe('Before you start: your personal data');
    expect(await page.getByRole('navigation', { name: 'Language' }).isVisible()).toBe(true);
    await expectPhoneFriendly(page);

    // Keyboard order: the language link, then agree, then decline; focus is visible.
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Kiswahili');
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('I agree');
    expect(await page.locator(':focus').evaluate((element) => getComputedStyle(element).outlineWidth)).toBe('3px');
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('I do not agree');

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=consent_recorded&lang=en`),
      page.getByRole('button', { name: 'I agree' }).click(),
    ]);
    expect(await page.getByRole('status').textContent()).toBe('Thank you. Your consent was recorded.');
    expect(await page.locator('#session-status').textContent()).toBe('Waiting for documents');
    await expect(page.title()).resolves.toBe('Waiting for documents: verify your identity');
    const consents = await database.db
      .select()
      .from(verificationConsents)
      .where(eq(verificationConsents.sessionId, sessionId));
    expect(consents).toHaveLength(1);
    expect(consents[0]).toMatchObject({ locale: 'en', textVersion: 'consent-2026-11' });
    expect(consents[0]?.userAgent).toContain('Chrome');
    await expectPhoneFriendly(page);

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=submitted&lang=en`),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Processing');
    expect(await page.getByRole('status').textContent()).toBe('The documents were submitted for checking.');
    await expect(page.getByLabel('Reason for rejecting (optional)').isVisible()).resolves.toBe(true);
    await expectPhoneFriendly(page);

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=approved&lang=en`),
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

  it("a person on a phone finds the link to the customer's privacy notice by its name, and it sends no referrer", async () => {
    // The customer's privacy notice, served here: it records what the browser sends with the request.
    const requests: Array<{ url: string | undefined; referer: string | undefined }> = [];
    const notice = createServer((request, response) => {
      requests.push({ url: request.url, referer: request.headers.referer });
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end('<!doctype html><html lang="en"><title>Acme privacy notice</title><h1>Privacy</h1></html>');
    });
    await new Promise<void>((resolve) => notice.listen(0, '127.0.0.1', resolve));
    const privacyNoticeUrl = `http://127.0.0.1:${(notice.address() as AddressInfo).port}/privacy?from=verify`;
    const page = await browser.newPage();
    try {
      const created = await createSessionRequest(app, acme.testKey, {
        type: 'kyc',
        externalEndUserId: 'browser-privacy-reader',
        appName: 'Acme Wallet',
        privacyNoticeUrl,
      });
      expect(created.statusCode).toBe(201);
      const { verificationUrl } = created.json().data as { verificationUrl: string };
      await page.setViewportSize(PHONE);
      await page.goto(verificationUrl);

      const link = page.getByRole('link', { name: "Read Acme Wallet's privacy notice" });
      expect(await link.isVisible()).toBe(true);
      expect(await link.getAttribute('href')).toBe(privacyNoticeUrl);
      expect(await link.getAttribute('rel')).toBe('noreferrer');
      // A target a thumb can hit, inside the screen.
      const box = await link.boundingBox();
      expect(box?.height).toBeGreaterThanOrEqual(24);
      expect((box?.x ?? -1) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(PHONE.width);
      await expectPhoneFriendly(page);

      // Keyboard order: the language link, the privacy notice, then the answers.
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').textContent()).toBe('Kiswahili');
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').textContent()).toBe("Read Acme Wallet's privacy notice");
      expect(await page.locator(':focus').evaluate((element) => getComputedStyle(element).outlineWidth)).toBe('3px');
      await page.keyboard.press('Tab');
      expect(await page.locator(':focus').textContent()).toBe('I agree');

      // In Kiswahili too.
      await page.goto(`${verificationUrl}?lang=sw`);
      expect(await page.getByRole('link', { name: 'Soma ilani ya faragha ya Acme Wallet' }).isVisible()).toBe(true);
      await expectPhoneFriendly(page);

      // Following it, the page's URL (the session's credential) goes nowhere.
      await Promise.all([page.waitForURL(privacyNoticeUrl), page.getByRole('link', { name: /Acme Wallet/ }).click()]);
      expect(await page.title()).toBe('Acme privacy notice');
      // (The browser may then ask for the notice's favicon, with the notice as its referrer.)
      expect(requests.filter((request) => request.url === '/privacy?from=verify')).toEqual([
        { url: '/privacy?from=verify', referer: undefined },
      ]);
    } finally {
      await page.close();
      notice.closeAllConnections();
      await new Promise((resolve) => notice.close(resolve));
    }
  });

  it('a person declines in Kiswahili: the page says the verification was canceled, in both languages; the hold is released and the signed callback says why', async () => {
    const created = await createSessionRequest(app, acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'browser-decliner',
      appName: 'Acme Wallet',
      callbackUrl,
      returnUrl: callbackUrl.replace('/callbacks', '/back'),
      locale: 'sw',
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    const page = await browser.newPage();
    try {
      await page.setViewportSize(PHONE);
      await page.goto(verificationUrl);
      await Promise.all([
        page.waitForURL(`${verificationUrl}?step=declined`),
        page.getByRole('button', { name: 'Sikubali' }).click(),
      ]);
      await expect(page.title()).resolves.toBe('Hukukubali');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Hukukubali');
      expect(await page.locator('#declined-ended').textContent()).toBe(
        'Hakuna kilichokusanywa, na uthibitishaji huu umeghairiwa.',
      );
      expect(await page.getByRole('button').count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Endelea kwenye Acme Wallet' }).isVisible()).toBe(true);
      await expectPhoneFriendly(page);

      await Promise.all([
        page.waitForURL(`${verificationUrl}?lang=en`),
        page.getByRole('link', { name: 'English' }).click(),
      ]);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('You did not agree');
      expect(await page.locator('#declined-ended').textContent()).toBe(
        'Nothing was collected, and this verification was canceled.',
      );
      expect(await page.getByRole('link', { name: 'Continue to Acme Wallet' }).isVisible()).toBe(true);
      await expectPhoneFriendly(page);
    } finally {
      await page.close();
    }

    expect(await statusOf(database.db, sessionId)).toBe('canceled');
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold', 'release']);
    await app.webhookDelivery.runOnce();
    const { secret } = await ensureWebhookEndpoint(database.db, { organizationId: acme.id, environment: 'live' });
    const received = callbacks
      .filter(({ body }) => body.includes(sessionId))
      .map(({ body, headers }) => new Webhook(secret).verify(body, headers)) as Array<{
      type: string;
      data: { status: string; previousStatus: string | null; lastError: string | null; lastErrorCode: string | null };
    }>;
    expect(received.find((callback) => callback.type === 'verification_session.canceled')?.data).toMatchObject({
      status: 'canceled',
      previousStatus: 'pending',
      lastErrorCode: 'consent_declined',
      lastError: 'The person did not agree to the processing of their data',
    });
  });

  it('a person on a live kyc session agrees, takes the photos, reviews and submits; the page then waits for the decision', async () => {
    const created = await createSessionRequest(app, acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'browser-live-user',
      appName: 'Acme Wallet',
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    const photo = { name: 'photo.png', mimeType: 'image/png', buffer: await pngImage(600, 800, 'WANJIRU KAMAU') };

    const page = await browser.newPage();
    await page.setViewportSize(PHONE);
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    await page.goto(verificationUrl);
    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=consent_recorded`),
      page.getByRole('button', { name: 'I agree' }).click(),
    ]);
    // No sandbox on a live session: the capture form is the way forward.
    expect(await page.getByRole('heading', { name: 'Sandbox controls' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Your ID document' }).isVisible()).toBe(true);
    await expectPhoneFriendly(page);

    await page.getByLabel('Type of ID document').selectOption('national_id');
    await page.getByLabel('ID document number').fill('27183945');
    await page.getByLabel('Front of the ID document').setInputFiles(photo);
    await page.getByLabel('Back of the ID document').setInputFiles(photo);
    await page.getByLabel('A selfie').setInputFiles(photo);
    await Promise.all([
      page.waitForURL(/\?step=review$/),
      page.getByRole('button', { name: 'Upload and review' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Check before you submit');
    expect(await page.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^Front of the ID document: \d+ kB$/),
      expect.stringMatching(/^Back of the ID document: \d+ kB$/),
      expect.stringMatching(/^Selfie: \d+ kB$/),
    ]);
    expect(await page.locator('img').count()).toBe(0);
    await expectPhoneFriendly(page);

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=submitted`),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Processing');
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe(`10; url=${sessionId}`);
    expect(await statusOf(database.db, sessionId)).toBe('processing');
    await expectPhoneFriendly(page);
    expect(policyViolations).toEqual([]);
    await page.close();
  });

  it('a person asked to send the selfie again sees why, sends only a new selfie and submits; the ID documents stay', async () => {
    const created = await createSessionRequest(app, acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'browser-resubmit-user',
      appName: 'Acme Wallet',
    });
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    const photo = { name: 'photo.png', mimeType: 'image/png', buffer: await pngImage(600, 800, 'WANJIRU KAMAU') };
    const page = await browser.newPage();
    await page.setViewportSize(PHONE);
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });

    // The first submission, as in the flow above.
    await page.goto(verificationUrl);
    await Promise.all([
      page.waitForURL(/notice=consent_recorded/),
      page.getByRole('button', { name: 'I agree' }).click(),
    ]);
    await page.getByLabel('Type of ID document').selectOption('national_id');
    await page.getByLabel('ID document number').fill('27183945');
    await page.getByLabel('Front of the ID document').setInputFiles(photo);
    await page.getByLabel('Back of the ID document').setInputFiles(photo);
    await page.getByLabel('A selfie').setInputFiles(photo);
    await Promise.all([
      page.waitForURL(/\?step=review$/),
      page.getByRole('button', { name: 'Upload and review' }).click(),
    ]);
    await Promise.all([page.waitForURL(/notice=submitted/), page.getByRole('button', { name: 'Submit' }).click()]);
    const firstSet = await database.db
      .select()
      .from(verificationDocuments)
      .where(eq(verificationDocuments.sessionId, sessionId));
    expect(firstSet.map((document) => document.kind).sort()).toEqual([
      'id_document_back',
      'id_document_front',
      'selfie',
    ]);

    // A reviewer asks for the selfie again; the person comes back later.
    clockOffsetMs += 60_000;
    await unitOfWork(database.db, (work) =>
      moveSession(
        work,
        {
          sessionId,
          to: 'requires_input',
          actor: 'reviewer:r1',
          reason: 'Your face is not clear in the selfie',
          resubmitDocuments: ['selfie'],
          now: now(),
        },
        {},
      ),
    );
    clockOffsetMs += 60_000;

    await page.goto(verificationUrl);
    expect(await page.locator('#session-status').textContent()).toBe('More information needed');
    expect(await page.locator('.reason').textContent()).toBe('Reason: Your face is not clear in the selfie');
    expect(await page.getByRole('heading', { name: 'Documents to send again' }).isVisible()).toBe(true);
    expect(await page.locator('#resend-documents li').allTextContents()).toEqual(['Selfie']);
    // Only the selfie's input, as before (a camera facing the person), and no details to type again.
    const fileInputs = page.locator('input[type=file]');
    expect(await fileInputs.count()).toBe(1);
    expect(await page.getByLabel('A selfie').getAttribute('accept')).toBe('image/*');
    expect(await page.getByLabel('A selfie').getAttribute('capture')).toBe('user');
    expect(await page.getByLabel('Type of ID document').count()).toBe(0);
    expect(await page.getByLabel('ID document number').count()).toBe(0);
    await expectPhoneFriendly(page);

    await page.getByLabel('A selfie').setInputFiles(photo);
    await Promise.all([
      page.waitForURL(/\?step=review$/),
      page.getByRole('button', { name: 'Upload and review' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Check before you submit');
    expect(await page.locator('#review-sent-again + ul li').allTextContents()).toEqual([
      expect.stringMatching(/^Selfie: \d+ kB$/),
    ]);
    expect(await page.locator('#review-kept + ul li').allTextContents()).toEqual([
      expect.stringMatching(/^Front of the ID document: \d+ kB$/),
      expect.stringMatching(/^Back of the ID document: \d+ kB$/),
    ]);
    expect(await page.getByText('The details you submitted before are kept.').isVisible()).toBe(true);
    await expectPhoneFriendly(page);

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=submitted`),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Processing');
    expect(await statusOf(database.db, sessionId)).toBe('processing');
    const documents = await database.db
      .select()
      .from(verificationDocuments)
      .where(eq(verificationDocuments.sessionId, sessionId));
    const oldSelfie = firstSet.find((document) => document.kind === 'selfie');
    const current = documents.filter((document) => document.supersededAt === null);
    expect(documents.find((document) => document.id === oldSelfie?.id)?.supersededAt).toEqual(expect.any(Date));
    expect(current.map((document) => document.kind).sort()).toEqual([
      'id_document_back',
      'id_document_front',
      'selfie',
    ]);
    // The ID documents are the ones first sent; the selfie is the new one.
    const idDocuments = firstSet.filter((document) => document.kind !== 'selfie').map((document) => document.id);
    expect(
      current
        .filter((document) => document.kind !== 'selfie')
        .map((document) => document.id)
        .sort(),
    ).toEqual(idDocuments.sort());
    expect(current.find((document) => document.kind === 'selfie')?.id).not.toBe(oldSelfie?.id);
    expect(policyViolations).toEqual([]);
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
