import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expectPhoneFriendly, PHONE } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { hostedPageBrowserSuite } from '../../../../test/hosted-page-browser-suite.js';
import { createSessionRequest } from '../../../../test/verification-fixtures.js';

describe.skipIf(missing(chromiumBrowser))('the hosted page in headless Chromium, without JavaScript', () => {
  const suite = hostedPageBrowserSuite();

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
    const page = await suite.browser.newPage();
    try {
      const created = await createSessionRequest(suite.app, suite.acme.testKey, {
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
});
