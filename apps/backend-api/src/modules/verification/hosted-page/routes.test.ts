import { verificationSessions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testFormToken } from '../../../../test/hosted-page-fixtures.js';
import { HOSTED_PAGE_CSP, hostedPageSuite } from '../../../../test/hosted-page-suite.js';
import { createdSessionId, holdMovements, statusOf, transitionsOf } from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';
import { formTokenFor } from './form-token.js';

// The hosted page's routes: the page of a session, its sandbox buttons and its languages. The consent notice is
// consent.test.ts, the capture form capture.test.ts.

describe('the hosted verification page', () => {
  const hosted = hostedPageSuite();
  const { suite, page, post, act, agree, consentsOf, newTestSession, testSession, withApp, apiKeyIdOfSession } = hosted;

  describe('GET /session/:id', () => {
    it('shows a test session as accessible HTML with its own strict CSP and no-store caching', async () => {
      const id = await testSession();
      const response = await page(id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(HOSTED_PAGE_CSP);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers['x-robots-tag']).toBe('noindex');
      const html = response.body;
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(html).toContain('<h1>Verify your identity</h1>');
      expect(html).toContain('Requested by <strong>Acme Wallet</strong>');
      expect(html).toContain('id="session-status">Waiting for documents</p>');
      expect(html).toContain('<li>National ID card or passport</li>');
      expect(html).toContain('<li>A selfie: a clear photo of your face</li>');
      expect(html).toContain('Test session');
      expect(html).toContain('<button type="submit" class="primary">Submit</button>');
      expect(html).not.toContain('Approve');
      expect(html).toContain(`name="token" value="${testFormToken(id)}"`);
      expect(html).toContain(':focus-visible');
      // No script, no external asset.
      expect(html).not.toMatch(/<script|<link|src=|https?:\/\//);
    });

    it('never shows the organization, the end user id or the price', async () => {
      const id = await testSession();
      const html = (await page(id)).body;
      expect(html).not.toContain('Acme Secret Holdings');
      expect(html).not.toContain('private-end-user-77');
      expect(html).not.toContain(hosted.acme.id);
      expect(html).not.toMatch(/\b50\b.*KES|KES/);
    });

    it("lists a kyb session's business documents", async () => {
      const id = await testSession({ type: 'kyb' });
      const html = (await page(id)).body;
      expect(html).toContain('<h1>Verify your business</h1>');
      for (const document of [
        'Certificate of incorporation',
        'CR12: the official list of directors and shareholders',
        'KRA PIN certificate of the business',
        'National ID card or passport of each director',
      ]) {
        expect(html).toContain(`<li>${document}</li>`);
      }
    });

    it('escapes what the customer sent', async () => {
      const id = await testSession({ appName: '<img src=x onerror=alert(1)>' });
      const html = (await page(id)).body;
      expect(html).toContain('Requested by <strong>&lt;img src=x onerror=alert(1)&gt;</strong>');
      expect(html).not.toContain('<img');
    });

    it.each([
      ['an unknown id', crypto.randomUUID()],
      ['an id that is not a UUID', 'not-a-session'],
    ])('answers a friendly 404 page for %s', async (_label, id) => {
      const response = await page(id);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(HOSTED_PAGE_CSP);
      expect(response.body).toContain('<h1>Verification not found</h1>');
    });

    it('shows only known notices, never text from the URL', async () => {
      const id = await testSession();
      expect((await page(id, '?notice=submitted')).body).toContain(
        'role="status">The documents were submitted for checking.</p>',
      );
      const forged = await page(id, '?notice=%3Cb%3Epwned%3C%2Fb%3E');
      expect(forged.statusCode).toBe(200);
      expect(forged.body).not.toContain('pwned');
    });

    it('shows the sandbox controls exactly on the sessions the sandbox decides', async () => {
      const hasControls = async (id: string, on: BackendApp = suite.app) => {
        await agree(id, {}, on);
        const html = (await page(id, '', on)).body;
        expect(html).toContain('id="session-status">Waiting for documents</p>');
        return html.includes('Sandbox controls') && html.includes('<form');
      };
      // The defaults: the sandbox decides test sessions, a reviewer live ones.
      const live = await createdSessionId(suite.app, hosted.acme.liveKey, {
        type: 'kyc',
        externalEndUserId: 'live-user',
      });
      expect(await hasControls(live)).toBe(false);
      expect(await hasControls(await testSession())).toBe(true);

      await withApp({ HOSTED_PAGE_LIVE_SANDBOX: 'true' }, async (allowed) => {
        // Allowing live sandbox chooses nothing: a live session stays with a reviewer.
        expect(await hasControls(live, allowed)).toBe(false);
        const stillManual = await createdSessionId(allowed, hosted.acme.liveKey, {
          type: 'kyb',
          externalEndUserId: 'x',
        });
        expect(await hasControls(stillManual, allowed)).toBe(false);
      });

      await withApp({ HOSTED_PAGE_LIVE_SANDBOX: 'true', VERIFICATION_DECISIONS: 'live:*=sandbox' }, async (local) => {
        const sandboxLive = await createdSessionId(local, hosted.acme.liveKey, {
          type: 'kyc',
          externalEndUserId: 'local',
        });
        expect(await hasControls(sandboxLive, local)).toBe(true);
        // The source is the session's own: a configuration change does not hand the earlier one to the sandbox.
        expect(await hasControls(live, local)).toBe(false);
        // And where live sandbox is not allowed, no live session gets the buttons, whatever it was made with.
        expect(await hasControls(sandboxLive)).toBe(false);
      });

      await withApp({ VERIFICATION_DECISIONS: 'test:kyb=manual' }, async (reviewedKyb) => {
        const kyb = await createdSessionId(reviewedKyb, hosted.acme.testKey, {
          type: 'kyb',
          externalEndUserId: 'company',
        });
        const kyc = await createdSessionId(reviewedKyb, hosted.acme.testKey, {
          type: 'kyc',
          externalEndUserId: 'person',
        });
        expect(await hasControls(kyb, reviewedKyb)).toBe(false);
        expect(await hasControls(kyc, reviewedKyb)).toBe(true);
      });
    });

    it('needs no API key and is not documented in OpenAPI', async () => {
      const id = await testSession();
      expect((await page(id)).statusCode).toBe(200);
      const openapi = (await suite.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(Object.keys(openapi.paths)).not.toContain('/session/{id}');
      expect(Object.keys(openapi.paths)).toContain('/v1/verify/sessions');
    });
  });

  describe('POST /session/:id (sandbox controls)', () => {
    it('submit, request resubmission, submit, approve: each a POST-redirect-GET through the lifecycle', async () => {
      const id = await testSession();
      const submitted = await act(id, 'submit');
      expect(submitted.statusCode).toBe(303);
      expect(submitted.headers.location).toBe(`${id}?notice=submitted`);
      expect(await statusOf(suite.db, id)).toBe('processing');
      const processingPage = (await page(id, '?notice=submitted')).body;
      expect(processingPage).toContain('id="session-status">Processing</p>');
      expect(processingPage).toContain('>Approve</button>');
      expect(processingPage).toContain('>Reject</button>');
      expect(processingPage).toContain('>Request resubmission</button>');
      expect(processingPage).toContain('<label for="reject-reason">');

      expect((await act(id, 'request_resubmission', { reason: 'The selfie is too dark' })).headers.location).toBe(
        `${id}?notice=resubmission_requested`,
      );
      const resubmitPage = (await page(id)).body;
      expect(resubmitPage).toContain('More information needed');
      expect(resubmitPage).toContain('<strong>Reason:</strong> The selfie is too dark');

      await act(id, 'submit');
      expect((await act(id, 'approve')).headers.location).toBe(`${id}?notice=approved`);
      expect(await statusOf(suite.db, id)).toBe('verified');
      expect(await holdMovements(suite.db, id)).toEqual(['capture', 'hold']);
      expect((await transitionsOf(suite.db, id)).map((step) => `${step.to}:${step.actor}`)).toEqual([
        `pending:api_key:${await apiKeyIdOfSession(id)}`,
        'processing:hosted_page',
        'requires_input:hosted_page',
        'processing:hosted_page',
        'verified:hosted_page',
      ]);
      const done = (await page(id)).body;
      expect(done).toContain('id="session-status">Verified</p>');
      expect(done).toContain('This session is finished');
      expect(done).not.toContain('<form');
    });

    it('rejects with the reason given', async () => {
      const id = await testSession();
      await act(id, 'submit');
      expect((await act(id, 'reject', { reason: 'Document expired' })).headers.location).toBe(`${id}?notice=rejected`);
      const [session] = await suite.db.select().from(verificationSessions).where(eq(verificationSessions.id, id));
      expect(session).toMatchObject({ status: 'rejected', lastError: 'Document expired' });
      expect((await page(id)).body).toContain('<strong>Reason:</strong> Document expired');
    });

    it('refuses a post without the right form token and changes nothing', async () => {
      const id = await testSession();
      const other = await testSession();
      for (const token of [
        '',
        'forged',
        testFormToken(other),
        formTokenFor('another-secret-of-at-least-32-characters!', id),
      ]) {
        const response = await post(id, { token, action: 'submit' });
        expect(response.statusCode).toBe(303);
        expect(response.headers.location).toBe(`${id}?notice=form_expired`);
      }
      expect(await statusOf(suite.db, id)).toBe('pending');
      expect((await page(id, '?notice=form_expired')).body).toContain('role="alert">That form has expired');
    });

    it('answers a stale button with the current state and changes nothing', async () => {
      const id = await testSession();
      const approveTooEarly = await act(id, 'approve');
      expect(approveTooEarly.headers.location).toBe(`${id}?notice=moved_on`);
      expect(await statusOf(suite.db, id)).toBe('pending');
      await act(id, 'submit');
      const submitTwice = await act(id, 'submit');
      expect(submitTwice.headers.location).toBe(`${id}?notice=moved_on`);
      expect(await transitionsOf(suite.db, id)).toHaveLength(2);
    });

    it('refuses sandbox actions on sessions the sandbox does not decide, and changes nothing', async () => {
      const live = await createdSessionId(suite.app, hosted.acme.liveKey, {
        type: 'kyc',
        externalEndUserId: 'live-user',
      });
      expect((await act(live, 'submit')).headers.location).toBe(`${live}?notice=sandbox_off`);
      expect(await statusOf(suite.db, live)).toBe('pending');

      await withApp({ HOSTED_PAGE_LIVE_SANDBOX: 'true', VERIFICATION_DECISIONS: 'live:*=sandbox' }, async (local) => {
        const submit = (id: string) => post(id, { token: testFormToken(id), action: 'submit' }, local);
        // The session made with a reviewer keeps it, even here.
        expect((await submit(live)).headers.location).toBe(`${live}?notice=sandbox_off`);
        expect(await statusOf(suite.db, live)).toBe('pending');

        const sandboxLive = await createdSessionId(local, hosted.acme.liveKey, {
          type: 'kyc',
          externalEndUserId: 'local',
        });
        await agree(sandboxLive, {}, local);
        // Not on an instance where live sandbox is off...
        expect((await act(sandboxLive, 'submit')).headers.location).toBe(`${sandboxLive}?notice=sandbox_off`);
        expect(await statusOf(suite.db, sandboxLive)).toBe('pending');
        // ...but where it is allowed.
        expect((await submit(sandboxLive)).headers.location).toBe(`${sandboxLive}?notice=submitted`);
        expect(await statusOf(suite.db, sandboxLive)).toBe('processing');
      });

      await withApp({ VERIFICATION_DECISIONS: 'test:*=manual' }, async (reviewed) => {
        const test = await createdSessionId(reviewed, hosted.acme.testKey, {
          type: 'kyc',
          externalEndUserId: 'person',
        });
        expect((await act(test, 'submit')).headers.location).toBe(`${test}?notice=sandbox_off`);
        expect(await statusOf(suite.db, test)).toBe('pending');
      });
    });

    it('answers 404 for an unknown session and 400 for an unknown action', async () => {
      const unknown = crypto.randomUUID();
      expect((await post(unknown, { token: testFormToken(unknown), action: 'submit' })).statusCode).toBe(404);
      const id = await testSession();
      expect((await act(id, 'self_destruct')).statusCode).toBe(400);
      expect(await statusOf(suite.db, id)).toBe('pending');
    });
  });

  describe('languages', () => {
    const swSession = () => newTestSession({ locale: 'sw' });

    it("shows the page in the session's locale, with a link to the other language", async () => {
      const id = await swSession();
      const html = (await page(id)).body;
      expect(html).toMatch(/^<!doctype html>\n<html lang="sw">/);
      expect(html).toContain('<h1>Kabla hujaanza: taarifa zako binafsi</h1>');
      expect(html).toContain('<strong>Acme Wallet</strong> inakusanya taarifa zako');
      expect(html).toContain('yatafutwa siku 30 baada ya uthibitishaji kukamilika');
      expect(html).toContain('>Nakubali</button>');
      expect(html).toContain('<nav class="languages" aria-label="Lugha">');
      expect(html).toContain('<a href="?lang=en" hreflang="en" lang="en">English</a>');
      expect(html).toContain('<span lang="sw" aria-current="true">Kiswahili</span>');
      // The session's own language needs no hidden field.
      expect(html).not.toContain('name="lang"');
    });

    it('lets ?lang=en|sw override it, ignores anything else, and keeps the chosen language through a post', async () => {
      const id = await swSession();
      const english = (await page(id, '?lang=en')).body;
      expect(english).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(english).toContain('>I agree</button>');
      expect(english).toContain('<input type="hidden" name="lang" value="en"/>');
      for (const ignored of ['?lang=fr', '?lang=EN', '?lang=', '?lang=%3Cb%3E']) {
        const html = (await page(id, ignored)).body;
        expect(html, ignored).toMatch(/^<!doctype html>\n<html lang="sw">/);
        expect(html, ignored).not.toContain('name="lang"');
      }

      const agreed = await agree(id, { lang: 'en' });
      expect(agreed.headers.location).toBe(`${id}?notice=consent_recorded&lang=en`);
      const [consent] = await consentsOf(id);
      expect(consent?.locale).toBe('en');
      const after = (await page(id, '?notice=consent_recorded&lang=en')).body;
      expect(after).toContain('role="status">Thank you. Your consent was recorded.</p>');
      expect(after).toContain('id="session-status">Waiting for documents</p>');

      // A posted language that names none is ignored like ?lang=.
      expect((await act(id, 'submit', { lang: 'xx' })).headers.location).toBe(`${id}?notice=submitted`);
    });

    it('records the Kiswahili notice as agreed in Kiswahili, and shows the whole status page in Kiswahili', async () => {
      const id = await swSession();
      await agree(id);
      const [consent] = await consentsOf(id);
      expect(consent?.locale).toBe('sw');
      const html = (await page(id)).body;
      expect(html).toContain('<title>Inasubiri hati: thibitisha utambulisho wako</title>');
      expect(html).toContain('<h1>Thibitisha utambulisho wako</h1>');
      expect(html).toContain('Imeombwa na <strong>Acme Wallet</strong>');
      expect(html).toContain('<li>Kitambulisho cha taifa au pasipoti</li>');
      expect(html).toContain('<h2 id="sandbox-heading">Vidhibiti vya sandbox</h2>');
      expect(html).toContain('>Wasilisha</button>');
      expect(html).toMatch(/Kiungo hiki kinafanya kazi hadi \d+ \w+ 2026/);
      for (const english of ['Waiting for documents', 'Documents you need', 'Submit<', 'Test session']) {
        expect(html).not.toContain(english);
      }
    });

    it('shows the not-found page in the language asked for', async () => {
      const html = (await page(crypto.randomUUID(), '?lang=sw')).body;
      expect(html).toMatch(/^<!doctype html>\n<html lang="sw">/);
      expect(html).toContain('<h1>Uthibitishaji haukupatikana</h1>');
    });
  });
});
