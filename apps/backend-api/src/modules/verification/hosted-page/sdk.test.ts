import { createHash } from 'node:crypto';
import { allowedOrigins } from '@platform/db/schema';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, type TestOrganization, useTestApp } from '../../../../test/app-fixtures.js';
import { multipart } from '../../../../test/document-fixtures.js';
import { HOSTED_PAGE_TEST_SECRET, testFormToken } from '../../../../test/hosted-page-fixtures.js';
import { createdSessionId, fundWallet, truncateVerificationData } from '../../../../test/verification-fixtures.js';

// The hosted page's side of the front-end SDK (docs/decisions.md#front-end-sdk): who may frame it (CSP
// frame-ancestors from the organization's allowed origins, 'none' without), whether a view of it reports events
// (only when the SDK opened it from an allowed origin), and that every link, form and redirect keeps the SDK's mode.
// In headless Chromium: sdk-browser.test.ts.

const SHOP = 'https://shop.example';
const NO_FRAMES_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('the hosted page and the front-end SDK', () => {
  const suite = useTestApp({ env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET } });
  const { clock } = suite;
  let acme: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
    await fundWallet(suite.db, acme.id, 'live', 1_000);
    await fundWallet(suite.db, acme.id, 'test', 1_000);
  });

  const allow = (environment: 'live' | 'test', origins: string[]) =>
    suite.db.insert(allowedOrigins).values({ organizationId: acme.id, environment, origins });
  const page = (id: string, query = '') => suite.app.inject({ method: 'GET', url: `/session/${id}${query}` });
  const post = (id: string, fields: Record<string, string>) => {
    clock.advance(1000);
    return suite.app.inject({
      method: 'POST',
      url: `/session/${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: testFormToken(id), ...fields }).toString(),
    });
  };
  const testSession = (body: object = {}) =>
    createdSessionId(suite.app, acme.testKey, { type: 'kyc', externalEndUserId: 'sdk-user', ...body });
  /** A test session the person agreed to, moved by the sandbox buttons through `actions`. */
  const sessionAfter = async (...actions: string[]) => {
    const id = await testSession({ returnUrl: 'https://shop.example/done' });
    for (const action of ['agree', ...actions]) expect((await post(id, { action })).statusCode).toBe(303);
    return id;
  };
  const embedded = `?sdk=embed&origin=${encodeURIComponent(SHOP)}`;
  const popup = `?sdk=popup&origin=${encodeURIComponent(SHOP)}`;
  /** The event a page would post, read from its meta element; undefined when it posts none. */
  const eventOf = (html: string) => {
    const match = /<meta name="verification-event" content="([^"]*)"\/>/.exec(html);
    return match?.[1] === undefined ? undefined : JSON.parse(match[1].replaceAll('&quot;', '"'));
  };
  const scriptOf = (html: string) => /<script>([^<]*)<\/script>/.exec(html)?.[1];

  describe('without allowed origins', () => {
    it('cannot be framed and runs no script, whatever the URL says', async () => {
      const id = await sessionAfter('submit', 'approve');
      for (const query of ['', embedded, popup]) {
        const response = await page(id, query);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-security-policy']).toBe(NO_FRAMES_CSP);
        expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
        expect(response.body).not.toContain('<script');
        expect(response.body).not.toContain('verification-event');
        expect(response.body).not.toContain('name="sdk"');
      }
    });

    it("is not framed by another environment's origins", async () => {
      await allow('live', [SHOP]);
      const id = await sessionAfter();
      const response = await page(id, embedded);
      expect(response.headers['content-security-policy']).toBe(NO_FRAMES_CSP);
      expect(response.body).not.toContain('<script');
    });
  });

  describe('with allowed origins', () => {
    beforeEach(async () => {
      await allow('test', [SHOP, 'http://localhost:3000']);
    });

    it('may be framed by them only, and lets a popup keep its opener', async () => {
      const id = await sessionAfter();
      const response = await page(id);
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; " +
          "frame-ancestors https://shop.example http://localhost:3000; base-uri 'none'",
      );
      expect(response.headers['x-frame-options']).toBeUndefined();
      expect(response.headers['cross-origin-opener-policy']).toBe('unsafe-none');
      // Opened without the SDK: nothing to report, no script.
      expect(response.body).not.toContain('<script');
    });

    it('reports the final status to the origin that opened it, with the one script its CSP allows by hash', async () => {
      const id = await sessionAfter('submit', 'approve');
      const response = await page(id, embedded);
      const html = response.body;
      expect(eventOf(html)).toEqual({
        mode: 'embed',
        origin: SHOP,
        event: { type: 'verification.completed', status: 'verified' },
      });
      const script = scriptOf(html);
      expect(script).toContain('postMessage(d.event,d.origin)');
      expect(script).not.toContain("'*'");
      const hash = createHash('sha256')
        .update(script ?? '')
        .digest('base64');
      expect(response.headers['content-security-policy']).toBe(
        `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; form-action 'self'; ` +
          "frame-ancestors https://shop.example http://localhost:3000; base-uri 'none'",
      );
      expect(html.match(/<script/g)).toHaveLength(1);
      // In a frame, the way back to the app leaves the frame.
      expect(html).toContain('<a class="button primary" href="https://shop.example/done" target="_top">');
      expect((await page(id, popup)).body).toContain('<a class="button primary" href="https://shop.example/done">');

      const rejected = await sessionAfter('submit', 'reject');
      expect(eventOf((await page(rejected, popup)).body)).toEqual({
        mode: 'popup',
        origin: SHOP,
        event: { type: 'verification.completed', status: 'rejected' },
      });
    });

    it('says submitted right after the submit only, and nothing while the person is still at work', async () => {
      const id = await sessionAfter('submit');
      expect(eventOf((await page(id, `${popup}&notice=submitted`)).body)).toEqual({
        mode: 'popup',
        origin: SHOP,
        event: { type: 'verification.submitted' },
      });
      // The processing page's reload, without the notice: nothing new to say. It keeps the SDK's mode.
      const reloaded = (await page(id, popup)).body;
      expect(eventOf(reloaded)).toBeUndefined();
      expect(reloaded).not.toContain('<script');
      expect(reloaded).toContain(
        `<meta http-equiv="refresh" content="10; url=${id}?sdk=popup&amp;origin=https%3A%2F%2Fshop.example"/>`,
      );
      // The consent notice and the capture form say nothing either.
      const fresh = await testSession();
      expect(eventOf((await page(fresh, popup)).body)).toBeUndefined();
    });

    it('says closed when the person declines the consent notice', async () => {
      const id = await testSession();
      const declined = await post(id, { action: 'decline', sdk: 'popup', origin: SHOP });
      expect(declined.headers.location).toBe(`${id}?step=declined&sdk=popup&origin=https%3A%2F%2Fshop.example`);
      expect(declined.headers['cross-origin-opener-policy']).toBe('unsafe-none');
      const html = (await page(id, `?step=declined&sdk=popup&origin=${encodeURIComponent(SHOP)}`)).body;
      expect(eventOf(html)).toEqual({ mode: 'popup', origin: SHOP, event: { type: 'verification.closed' } });
      // The session has ended; the link to the other language keeps the SDK's mode and origin.
      expect(html).toMatch(/href="\?lang=sw&amp;sdk=popup&amp;origin=https%3A%2F%2Fshop\.example"/);
    });

    it('reports to no origin it does not allow, and to no mode it does not know', async () => {
      const id = await sessionAfter('submit', 'approve');
      for (const query of [
        `?sdk=embed&origin=${encodeURIComponent('https://evil.example')}`,
        `?sdk=embed&origin=${encodeURIComponent('https://shop.example/')}`,
        `?sdk=embed&origin=${encodeURIComponent('HTTPS://SHOP.EXAMPLE')}`,
        `?sdk=embed&origin=*`,
        `?sdk=modal&origin=${encodeURIComponent(SHOP)}`,
        `?origin=${encodeURIComponent(SHOP)}`,
        '?sdk=embed',
      ]) {
        const response = await page(id, query);
        expect(response.statusCode, query).toBe(200);
        expect(response.body, query).not.toContain('<script');
        expect(response.body, query).not.toContain('name="sdk"');
        expect(response.headers['content-security-policy'], query).not.toContain('script-src');
      }
    });

    it('keeps the mode and origin through every link, form and redirect, and drops ones it does not allow', async () => {
      const id = await testSession();
      const consent = (await page(id, `${embedded}&lang=sw`)).body;
      expect(consent).toContain('<input type="hidden" name="lang" value="sw"/>');
      expect(consent).toContain('<input type="hidden" name="sdk" value="embed"/>');
      expect(consent).toContain('<input type="hidden" name="origin" value="https://shop.example"/>');
      expect(consent).toContain('href="?lang=en&amp;sdk=embed&amp;origin=https%3A%2F%2Fshop.example"');

      const agreed = await post(id, { action: 'agree', sdk: 'embed', origin: SHOP });
      expect(agreed.headers.location).toBe(`${id}?notice=consent_recorded&sdk=embed&origin=https%3A%2F%2Fshop.example`);
      const form = (await page(id, embedded)).body;
      expect(form.match(/name="sdk" value="embed"/g)?.length).toBeGreaterThanOrEqual(2);

      // The capture form's multipart post keeps them too.
      const { payload, headers } = multipart([
        { field: 'token', data: testFormToken(id) },
        { field: 'sdk', data: 'embed' },
        { field: 'origin', data: SHOP },
      ]);
      const uploaded = await suite.app.inject({ method: 'POST', url: `/session/${id}/documents`, headers, payload });
      expect(uploaded.statusCode).toBe(303);
      expect(uploaded.headers.location).toMatch(
        new RegExp(`^\\.\\./${id}\\?errors=[^&]+&sdk=embed&origin=https%3A%2F%2Fshop\\.example$`),
      );
      expect(uploaded.headers['cross-origin-opener-policy']).toBe('unsafe-none');

      // An origin the organization does not allow is not carried on.
      const stranger = await post(id, { action: 'submit', sdk: 'embed', origin: 'https://evil.example' });
      expect(stranger.headers.location).toBe(`${id}?notice=submitted`);
    });

    it('leaves out of its headers an origin that a CSP could not hold', async () => {
      await suite.db.delete(allowedOrigins);
      await allow('test', ['https://shop.example; script-src *', SHOP]);
      const id = await sessionAfter('submit', 'approve');
      const response = await page(id, `?sdk=embed&origin=${encodeURIComponent('https://shop.example; script-src *')}`);
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors https://shop.example; " +
          "base-uri 'none'",
      );
      expect(response.body).not.toContain('<script');
    });
  });

  it('answers an unknown session with the not-found page that nothing may frame', async () => {
    await allow('test', [SHOP]);
    const response = await page(crypto.randomUUID(), embedded);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-security-policy']).toBe(NO_FRAMES_CSP);
  });
});
