import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { paymentMethods } from '@platform/db/schema';
import { type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumBrowser, chromiumPath, missing } from '#test-prerequisites';
import {
  type BillingTestApp,
  liveBalance,
  paymentByReference,
  startBillingApp,
} from '../../../../../test/billing-fixtures.js';

describe.skipIf(missing(chromiumBrowser))('the sandbox card checkout in headless Chromium, without JavaScript', () => {
  let t: BillingTestApp;
  let browser: BrowserContext;
  let userDataDir: string;

  beforeAll(async () => {
    t = await startBillingApp({ listen: true });
    userDataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-checkout-chromium-'));
    browser = await chromium.launchPersistentContext(userDataDir, {
      executablePath: chromiumPath(),
      headless: true,
      // The checkout is plain HTML forms: it must work with no script at all.
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
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await t?.close();
  });

  async function startCheckout(amount: number) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/v1/billing/pay',
      headers: await t.headers(),
      payload: { method: 'card', amount },
    });
    expect(response.statusCode).toBe(200);
    return response.json() as { reference: string; checkoutUrl: string };
  }

  async function openCheckout(checkoutUrl: string) {
    const page = await browser.newPage();
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    const opened = await page.goto(checkoutUrl);
    expect(opened?.status()).toBe(200);
    return { page, policyViolations };
  }

  it('pays: the wallet is credited and the card saved', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutUrl } = await startCheckout(3200);
    const { page, policyViolations } = await openCheckout(checkoutUrl);
    await expect(page.title()).resolves.toBe('Sandbox checkout');
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Sandbox checkout');
    expect(await page.locator('dd').first().textContent()).toBe('KES 3,200');

    // The first control is the Pay button, reachable from the keyboard.
    await page.keyboard.press('Tab');
    expect(await page.locator(':focus').textContent()).toBe('Pay KES 3,200');
    await Promise.all([
      page.waitForURL(`${t.url}/v1/billing/checkout/complete?trxref=${reference}&reference=${reference}`),
      page.keyboard.press('Enter'),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payment successful');
    expect(policyViolations).toEqual([]);

    expect((await paymentByReference(t.db, reference)).status).toBe('succeeded');
    expect(await liveBalance(t.db, t.organizationId)).toBe(before + 3200);
    expect(await t.db.select().from(paymentMethods)).toHaveLength(1);

    // Back to the checkout: it is closed now, and paying twice is impossible.
    await page.goto(checkoutUrl);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This checkout is closed');
    expect(await page.getByRole('button').count()).toBe(0);
    await page.close();
  });

  it('declines: the payment fails and nothing is credited', async () => {
    const before = await liveBalance(t.db, t.organizationId);
    const { reference, checkoutUrl } = await startCheckout(1800);
    const { page, policyViolations } = await openCheckout(checkoutUrl);
    await Promise.all([
      page.waitForURL(/\/v1\/billing\/checkout\/complete\?/),
      page.getByRole('button', { name: 'Decline' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Payment failed');
    expect(policyViolations).toEqual([]);
    expect(await paymentByReference(t.db, reference)).toMatchObject({
      status: 'failed',
      failureReason: 'Declined in the sandbox checkout',
    });
    expect(await liveBalance(t.db, t.organizationId)).toBe(before);
    await page.close();
  });
});
