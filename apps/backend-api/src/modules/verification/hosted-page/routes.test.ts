import { verificationConsents, verificationSessions, webhookEvents } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  replaceOrganizations,
  type TestOrganization,
  useTestApp,
} from '../../../../test/app-fixtures.js';
import { HOSTED_PAGE_TEST_SECRET, testFormToken } from '../../../../test/hosted-page-fixtures.js';
import {
  createdSessionId,
  fundWallet,
  holdMovements,
  statusOf,
  transitionsOf,
  truncateVerificationData,
} from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';
import { formTokenFor } from './form-token.js';
import { CONSENT_TEXT_VERSION } from './service.js';

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

describe('the hosted verification page', () => {
  const suite = useTestApp({ env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET } });
  const { clock } = suite;
  let acme: TestOrganization;

  beforeEach(async () => {
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme Secret Holdings');
    await fundWallet(suite.db, acme.id, 'live', 1_000);
    await fundWallet(suite.db, acme.id, 'test', 1_000);
  });

  const page = (id: string, query = '', on: BackendApp = suite.app) =>
    on.inject({ method: 'GET', url: `/session/${id}${query}` });
  const post = (id: string, fields: Record<string, string>, on: BackendApp = suite.app) =>
    on.inject({
      method: 'POST',
      url: `/session/${id}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
  // A second passes between clicks, so the history reads in order.
  const act = (id: string, action: string, extra: Record<string, string> = {}) => {
    clock.advance(1000);
    return post(id, { token: testFormToken(id), action, ...extra });
  };
  /** The person agrees to the consent notice, as the page's "I agree" button posts it. */
  const agree = (id: string, extra: Record<string, string> = {}, on: BackendApp = suite.app) =>
    post(id, { token: testFormToken(id), action: 'agree', ...extra }, on);
  const consentsOf = (id: string) =>
    suite.db.select().from(verificationConsents).where(eq(verificationConsents.sessionId, id));
  const newTestSession = (body: object = {}) =>
    createdSessionId(suite.app, acme.testKey, {
      type: 'kyc',
      externalEndUserId: 'private-end-user-77',
      appName: 'Acme Wallet',
      ...body,
    });
  /** A test session whose person has agreed to the consent notice: the page shows its status and buttons. */
  const testSession = async (body: object = {}) => {
    const id = await newTestSession(body);
    expect((await agree(id)).headers.location).toBe(`${id}?notice=consent_recorded`);
    return id;
  };

  describe('GET /session/:id', () => {
    it('shows a test session as accessible HTML with its own strict CSP and no-store caching', async () => {
      const id = await testSession();
      const response = await page(id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).toBe(CSP);
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
      expect(html).not.toContain(acme.id);
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
      expect(response.headers['content-security-policy']).toBe(CSP);
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
      const live = await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'live-user' });
      expect(await hasControls(live)).toBe(false);
      expect(await hasControls(await testSession())).toBe(true);

      await withApp({ HOSTED_PAGE_LIVE_SANDBOX: 'true' }, async (allowed) => {
        // Allowing live sandbox chooses nothing: a live session stays with a reviewer.
        expect(await hasControls(live, allowed)).toBe(false);
        const stillManual = await createdSessionId(allowed, acme.liveKey, { type: 'kyb', externalEndUserId: 'x' });
        expect(await hasControls(stillManual, allowed)).toBe(false);
      });

      await withApp({ HOSTED_PAGE_LIVE_SANDBOX: 'true', VERIFICATION_DECISIONS: 'live:*=sandbox' }, async (local) => {
        const sandboxLive = await createdSessionId(local, acme.liveKey, { type: 'kyc', externalEndUserId: 'local' });
        expect(await hasControls(sandboxLive, local)).toBe(true);
        // The source is the session's own: a configuration change does not hand the earlier one to the sandbox.
        expect(await hasControls(live, local)).toBe(false);
        // And where live sandbox is not allowed, no live session gets the buttons, whatever it was made with.
        expect(await hasControls(sandboxLive)).toBe(false);
      });

      await withApp({ VERIFICATION_DECISIONS: 'test:kyb=manual' }, async (reviewedKyb) => {
        const kyb = await createdSessionId(reviewedKyb, acme.testKey, { type: 'kyb', externalEndUserId: 'company' });
        const kyc = await createdSessionId(reviewedKyb, acme.testKey, { type: 'kyc', externalEndUserId: 'person' });
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
      const live = await createdSessionId(suite.app, acme.liveKey, { type: 'kyc', externalEndUserId: 'live-user' });
      expect((await act(live, 'submit')).headers.location).toBe(`${live}?notice=sandbox_off`);
      expect(await statusOf(suite.db, live)).toBe('pending');

      await withApp({ HOSTED_PAGE_LIVE_SANDBOX: 'true', VERIFICATION_DECISIONS: 'live:*=sandbox' }, async (local) => {
        const submit = (id: string) => post(id, { token: testFormToken(id), action: 'submit' }, local);
        // The session made with a reviewer keeps it, even here.
        expect((await submit(live)).headers.location).toBe(`${live}?notice=sandbox_off`);
        expect(await statusOf(suite.db, live)).toBe('pending');

        const sandboxLive = await createdSessionId(local, acme.liveKey, { type: 'kyc', externalEndUserId: 'local' });
        await agree(sandboxLive, {}, local);
        // Not on an instance where live sandbox is off...
        expect((await act(sandboxLive, 'submit')).headers.location).toBe(`${sandboxLive}?notice=sandbox_off`);
        expect(await statusOf(suite.db, sandboxLive)).toBe('pending');
        // ...but where it is allowed.
        expect((await submit(sandboxLive)).headers.location).toBe(`${sandboxLive}?notice=submitted`);
        expect(await statusOf(suite.db, sandboxLive)).toBe('processing');
      });

      await withApp({ VERIFICATION_DECISIONS: 'test:*=manual' }, async (reviewed) => {
        const test = await createdSessionId(reviewed, acme.testKey, { type: 'kyc', externalEndUserId: 'person' });
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

  describe('consent before anything else', () => {
    it('shows a pending session the consent notice first: who, what, why, how long, rights', async () => {
      const id = await newTestSession();
      const response = await page(id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy']).toBe(CSP);
      const html = response.body;
      expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
      expect(html).toContain('<title>Before you start: your personal data</title>');
      expect(html).toContain('<h1>Before you start: your personal data</h1>');
      expect(html).toContain('<strong>Acme Wallet</strong> collects your data and decides how it is used');
      expect(html).toContain(
        'The verification service that runs this page processes it for <strong>Acme Wallet</strong>',
      );
      expect(html).toContain(
        'Photos of your ID document (front and back, or your passport), your ID number and a selfie.',
      );
      expect(html).toContain('To verify your identity for <strong>Acme Wallet</strong>, to prevent fraud');
      expect(html).toContain('deleted 30 days after the verification is finished');
      expect(html).toContain('Data Protection Act, 2019');
      expect(html).toContain('Office of the Data Protection Commissioner');
      expect(html).toContain('<button type="submit" name="action" value="agree" class="primary">I agree</button>');
      expect(html).toContain(
        '<button type="submit" name="action" value="decline" class="secondary">I do not agree</button>',
      );
      expect(html).toContain(`name="token" value="${testFormToken(id)}"`);
      // Asked for the first time, and the session has no privacy notice: neither is mentioned.
      expect(html).not.toContain('consent-changed');
      expect(html).not.toContain('privacy notice');
      expect(html).not.toContain('privacy-notice');
      // Nothing of the status page or the sandbox before consent.
      expect(html).not.toContain('Sandbox controls');
      expect(html).not.toContain('session-status');
      expect(html).not.toMatch(/<script|<link|src=|https?:\/\//);
      // Headings in order: one h1, then h2s.
      expect([...html.matchAll(/<h(\d)/g)].map((match) => match[1])).toEqual(['1', '2', '2', '2', '2', '2']);
    });

    it('tells a kyb session what is collected of a business, and states the configured retention', async () => {
      await withApp({ VERIFICATION_RETENTION_DAYS: '45' }, async (other) => {
        const id = await createdSessionId(other, acme.testKey, {
          type: 'kyb',
          externalEndUserId: 'company',
          appName: 'Acme Books',
        });
        const html = (await page(id, '', other)).body;
        expect(html).toContain(
          'Your company&#39;s registration details and documents, and the ID documents of its directors.',
        );
        expect(html).toContain('To verify your business for <strong>Acme Books</strong>');
        expect(html).toContain('deleted 45 days after the verification is finished');
      });
    });

    it("names the customer's organization as the one collecting when the session has no app name", async () => {
      const id = await createdSessionId(suite.app, acme.testKey, { type: 'kyc', externalEndUserId: 'someone' });
      const consentPage = (await page(id)).body;
      expect(consentPage).toContain('<strong>Acme Secret Holdings</strong> collects your data');
      // Once consent is given, the page is back to showing nothing of the organization.
      await agree(id);
      const statusPage = (await page(id)).body;
      expect(statusPage).toContain('id="session-status">Waiting for documents</p>');
      expect(statusPage).not.toContain('Acme Secret Holdings');
    });

    it("links to the customer's privacy notice when the session has one, sending no referrer", async () => {
      const privacyNoticeUrl = 'https://acme.example.com/privacy?section=kyc&lang=en';
      const id = await newTestSession({ privacyNoticeUrl });
      const response = await page(id);
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const html = response.body;
      const link =
        '<a href="https://acme.example.com/privacy?section=kyc&amp;lang=en" rel="noreferrer" id="privacy-notice" class="target">' +
        'Read Acme Wallet&#39;s privacy notice</a>';
      expect(html).toContain(`<p>${link}</p>`);
      // In the "who collects" section, after the controller and the processor.
      const who = html.slice(html.indexOf('id="consent-who"'), html.indexOf('id="consent-what"'));
      expect(who).toContain(link);
      expect(html.match(/<a /g)).toHaveLength(2);

      const swahili = (await page(id, '?lang=sw')).body;
      expect(swahili).toContain(
        'rel="noreferrer" id="privacy-notice" class="target">Soma ilani ya faragha ya Acme Wallet</a>',
      );

      // Without an app name the organization is the controller, named in the link too.
      const unnamed = await createdSessionId(suite.app, acme.testKey, {
        type: 'kyc',
        externalEndUserId: 'someone',
        privacyNoticeUrl: 'https://acme.example.com/privacy',
      });
      expect((await page(unnamed)).body).toContain(
        'id="privacy-notice" class="target">Read Acme Secret Holdings&#39;s privacy notice</a>',
      );

      // The link belongs to the consent notice: once agreed, the page shows it no more.
      await agree(id);
      expect((await page(id)).body).not.toContain('privacy-notice');
    });

    it('asks a person who agreed to an earlier text again, saying the notice changed, and takes no button until then', async () => {
      const id = await newTestSession();
      await suite.db.insert(verificationConsents).values({
        sessionId: id,
        textVersion: 'consent-2025-01',
        locale: 'en',
        ip: '198.51.100.4',
        userAgent: 'Old phone',
        createdAt: clock.now(),
      });
      const html = (await page(id)).body;
      expect(html).toContain('<h1>Before you start: your personal data</h1>');
      expect(html).toContain(
        '<p class="changed" id="consent-changed">This notice has changed since you agreed to it. Please read it again: nothing more is collected until you agree.</p>',
      );
      expect(html).not.toContain('session-status');
      expect((await page(id, '?lang=sw')).body).toContain(
        'id="consent-changed">Ilani hii imebadilika tangu ulipoikubali.',
      );

      expect((await act(id, 'submit')).headers.location).toBe(`${id}?notice=consent_needed`);
      expect(await statusOf(suite.db, id)).toBe('pending');

      clock.advance(1000);
      expect((await agree(id)).headers.location).toBe(`${id}?notice=consent_recorded`);
      expect((await agree(id)).headers.location).toBe(`${id}?notice=consent_recorded`);
      const consents = await consentsOf(id);
      expect(
        consents
          .map(({ textVersion, ip }) => ({ textVersion, ip }))
          .sort((a, b) => a.textVersion.localeCompare(b.textVersion)),
      ).toEqual([
        { textVersion: 'consent-2025-01', ip: '198.51.100.4' },
        { textVersion: CONSENT_TEXT_VERSION, ip: '127.0.0.1' },
      ]);
      const after = (await page(id)).body;
      expect(after).toContain('id="session-status">Waiting for documents</p>');
      expect(after).not.toContain('consent-changed');
      expect((await act(id, 'submit')).headers.location).toBe(`${id}?notice=submitted`);
    });

    it('records consent once, with its text version, language, address and a shortened user agent', async () => {
      const id = await newTestSession();
      const longAgent = `Mozilla/5.0 ${'x'.repeat(2000)}`;
      const agreeAs = (sessionId: string, userAgent: string) =>
        suite.app.inject({
          method: 'POST',
          url: `/session/${sessionId}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
          payload: new URLSearchParams({ token: testFormToken(sessionId), action: 'agree' }).toString(),
        });
      clock.advance(1000);
      const agreedAt = clock.now();
      expect((await agreeAs(id, 'Phone browser')).headers.location).toBe(`${id}?notice=consent_recorded`);
      clock.advance(1000);
      // A second agreement (a double click, another tab) adds nothing.
      const again = await agreeAs(id, longAgent);
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe(`${id}?notice=consent_recorded`);
      const consents = await consentsOf(id);
      expect(consents).toHaveLength(1);
      expect(consents[0]).toMatchObject({
        textVersion: CONSENT_TEXT_VERSION,
        locale: 'en',
        ip: '127.0.0.1',
        userAgent: 'Phone browser',
        createdAt: agreedAt,
      });

      const other = await newTestSession();
      await agreeAs(other, longAgent);
      const [withAgent] = await consentsOf(other);
      expect(withAgent?.userAgent).toBe(longAgent.slice(0, 512));

      // Agreeing moves the page on; the status is unchanged.
      const after = (await page(id, '?notice=consent_recorded')).body;
      expect(after).toContain('role="status">Thank you. Your consent was recorded.</p>');
      expect(after).toContain('id="session-status">Waiting for documents</p>');
      expect(after).toContain('>Submit</button>');
      expect(await statusOf(suite.db, id)).toBe('pending');
    });

    it('records two agreements sent at the same moment once', async () => {
      const id = await newTestSession();
      const answers = await Promise.all([agree(id), agree(id), agree(id)]);
      expect(answers.map((answer) => answer.headers.location)).toEqual(Array(3).fill(`${id}?notice=consent_recorded`));
      expect(await consentsOf(id)).toHaveLength(1);
    });

    it('needs the form token to record consent', async () => {
      const id = await newTestSession();
      const other = await newTestSession();
      for (const token of ['', 'forged', testFormToken(other)]) {
        const response = await post(id, { token, action: 'agree' });
        expect(response.statusCode).toBe(303);
        expect(response.headers.location).toBe(`${id}?notice=form_expired`);
      }
      expect(await consentsOf(id)).toEqual([]);
      const html = (await page(id, '?notice=form_expired')).body;
      expect(html).toContain('role="alert">That form has expired');
      expect(html).toContain('I agree</button>');
    });

    it('takes no sandbox button before consent', async () => {
      const id = await newTestSession();
      const response = await act(id, 'submit');
      expect(response.headers.location).toBe(`${id}?notice=consent_needed`);
      expect(await statusOf(suite.db, id)).toBe('pending');
      expect((await page(id, '?notice=consent_needed')).body).toContain(
        'role="alert">Please read the notice and agree first. Nothing was done.</p>',
      );
    });

    it('ends the session after "I do not agree": canceled, consent_declined, the callback written, the hold released', async () => {
      const id = await createdSessionId(suite.app, acme.liveKey, {
        type: 'kyc',
        externalEndUserId: 'private-end-user-77',
        appName: 'Acme Wallet',
        callbackUrl: 'https://acme.example/callbacks',
        returnUrl: 'https://acme.example/back',
      });
      expect(await holdMovements(suite.db, id)).toEqual(['hold']);
      clock.advance(1000);
      const declined = await post(id, { token: testFormToken(id), action: 'decline' });
      expect(declined.statusCode).toBe(303);
      expect(declined.headers.location).toBe(`${id}?step=declined`);

      const answer = await suite.app.inject({
        method: 'GET',
        url: `/v1/verify/sessions/${id}`,
        headers: { 'x-service-api-key': acme.liveKey },
      });
      expect(answer.json().data).toMatchObject({
        status: 'canceled',
        lastErrorCode: 'consent_declined',
        lastError: 'The person did not agree to the processing of their data',
        completedAt: clock.now().toISOString(),
      });
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      expect((await transitionsOf(suite.db, id)).at(-1)).toEqual({
        from: 'pending',
        to: 'canceled',
        actor: 'hosted_page',
      });
      const [event, ...others] = await suite.db
        .select()
        .from(webhookEvents)
        .where(eq(webhookEvents.type, 'verification_session.canceled'));
      expect(others).toEqual([]);
      expect(event).toMatchObject({ targetUrl: 'https://acme.example/callbacks' });
      expect(event?.payload).toMatchObject({
        type: 'verification_session.canceled',
        data: { sessionId: id, status: 'canceled', previousStatus: 'pending', lastErrorCode: 'consent_declined' },
      });
      expect(await consentsOf(id)).toEqual([]);

      // The page says so on every visit, with the way back to the app and no form.
      for (const query of ['?step=declined', '']) {
        const html = (await page(id, query)).body;
        expect(html).toContain('<h1>You did not agree</h1>');
        expect(html).toContain('Nothing was collected, and this verification was canceled.');
        expect(html).toContain('To verify another way, or to start again, contact Acme Wallet.');
        expect(html).toContain('href="https://acme.example/back"');
        expect(html).not.toContain('<form');
      }
      // A second decline (another tab, a double click) and a late agreement change nothing.
      expect((await post(id, { token: testFormToken(id), action: 'decline' })).headers.location).toBe(
        `${id}?notice=moved_on`,
      );
      expect((await agree(id)).headers.location).toBe(`${id}?notice=moved_on`);
      expect(await holdMovements(suite.db, id)).toEqual(['hold', 'release']);
      expect(await consentsOf(id)).toEqual([]);
    });

    it('says nothing more was collected when the person agreed to an earlier notice and declines the current one', async () => {
      const id = await newTestSession();
      await suite.db.insert(verificationConsents).values({
        sessionId: id,
        textVersion: 'consent-2020-01',
        locale: 'en',
        ip: '192.0.2.1',
        userAgent: null,
      });
      expect((await post(id, { token: testFormToken(id), action: 'decline' })).statusCode).toBe(303);
      expect(await statusOf(suite.db, id)).toBe('canceled');
      expect((await page(id)).body).toContain('Nothing more was collected, and this verification was canceled.');
    });

    it('cancels nothing when the person agreed to the current notice meanwhile (another tab)', async () => {
      const id = await testSession();
      const declined = await post(id, { token: testFormToken(id), action: 'decline' });
      expect(declined.headers.location).toBe(`${id}?notice=consent_recorded`);
      expect(await statusOf(suite.db, id)).toBe('pending');
      expect((await page(id, '?step=declined')).body).toContain('id="session-status">Waiting for documents</p>');
    });

    it('cancels nothing on a decline without the right form token', async () => {
      const id = await newTestSession();
      const declined = await post(id, { token: 'forged', action: 'decline' });
      expect(declined.headers.location).toBe(`${id}?notice=form_expired`);
      expect(await statusOf(suite.db, id)).toBe('pending');
    });

    it('records nothing on a session that no longer waits for documents', async () => {
      const id = await newTestSession();
      const canceled = await suite.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${id}/cancel`,
        headers: { 'x-service-api-key': acme.testKey, 'x-idempotency-key': crypto.randomUUID() },
      });
      expect(canceled.statusCode).toBe(200);
      expect((await page(id)).body).toContain('id="session-status">Canceled</p>');
      expect((await agree(id)).headers.location).toBe(`${id}?notice=moved_on`);
      expect(await consentsOf(id)).toEqual([]);
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

  /** Runs `work` with a second app on the same database, configured with `env` as well. */
  async function withApp(env: Record<string, string>, work: (app: BackendApp) => Promise<void>) {
    const app = await buildTestApp(suite.handle, {
      now: clock.now,
      env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET, ...env },
    });
    try {
      await work(app);
    } finally {
      await app.close();
    }
  }

  async function apiKeyIdOfSession(id: string) {
    const [session] = await suite.db
      .select({ apiKeyId: verificationSessions.apiKeyId })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, id));
    return session?.apiKeyId;
  }
});
