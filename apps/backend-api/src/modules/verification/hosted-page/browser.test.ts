import { verificationConsents, webhookEvents } from '@platform/db/schema';
import { ensureWebhookEndpoint } from '@platform/webhooks';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { expectPhoneFriendly, PHONE } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { hostedPageBrowserSuite, VERIFY_HOST } from '../../../../test/hosted-page-browser-suite.js';
import { createSessionRequest, holdMovements, statusOf } from '../../../../test/verification-fixtures.js';

describe.skipIf(missing(chromiumBrowser))('the hosted page in headless Chromium, without JavaScript', () => {
  const suite = hostedPageBrowserSuite();

  it('a person reads the consent in Kiswahili, switches to English and agrees; a tester then completes the session, and the signed callback arrives', async () => {
    const created = await createSessionRequest(suite.app, suite.acme.testKey, {
      type: 'kyc',
      externalEndUserId: 'browser-user',
      appName: 'Acme Wallet',
      callbackUrl: suite.callbackUrl,
      locale: 'sw',
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    expect(verificationUrl).toBe(`http://${VERIFY_HOST}/session/${sessionId}`);

    const page = await suite.browser.newPage();
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
    const consents = await suite.database.db
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

    expect(await statusOf(suite.database.db, sessionId)).toBe('verified');
    expect(await holdMovements(suite.database.db, sessionId)).toEqual(['capture', 'hold']);
    const [event] = await suite.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.type, 'verification_session.verified'));
    expect(event).toMatchObject({ targetUrl: suite.callbackUrl, environment: 'test' });

    // The delivery worker sends the outbox; the customer verifies each callback with the official library.
    await suite.app.webhookDelivery.runOnce();
    const { secret } = await ensureWebhookEndpoint(suite.database.db, {
      organizationId: suite.acme.id,
      environment: 'test',
    });
    const received = suite.callbacks.map(({ body, headers }) => new Webhook(secret).verify(body, headers)) as Array<{
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

  it('a person declines in Kiswahili: the page says the verification was canceled, in both languages; the hold is released and the signed callback says why', async () => {
    const created = await createSessionRequest(suite.app, suite.acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'browser-decliner',
      appName: 'Acme Wallet',
      callbackUrl: suite.callbackUrl,
      returnUrl: suite.callbackUrl.replace('/callbacks', '/back'),
      locale: 'sw',
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    const page = await suite.browser.newPage();
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

    expect(await statusOf(suite.database.db, sessionId)).toBe('canceled');
    expect(await holdMovements(suite.database.db, sessionId)).toEqual(['hold', 'release']);
    await suite.app.webhookDelivery.runOnce();
    const { secret } = await ensureWebhookEndpoint(suite.database.db, {
      organizationId: suite.acme.id,
      environment: 'live',
    });
    const received = suite.callbacks
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

  it('shows the friendly not-found page for an unknown session', async () => {
    const page = await suite.browser.newPage();
    const response = await page.goto(`http://${VERIFY_HOST}/session/${crypto.randomUUID()}`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Verification not found');
    await page.close();
  });
});
