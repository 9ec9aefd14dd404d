import { organizations, verificationConsents, webhookEvents } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { testFormToken } from '../../../../test/hosted-page-fixtures.js';
import { HOSTED_PAGE_CSP, hostedPageSuite } from '../../../../test/hosted-page-suite.js';
import { createdSessionId, holdMovements, statusOf, transitionsOf } from '../../../../test/verification-fixtures.js';
import { CONSENT_TEXT_VERSION } from './service.js';

// The consent notice before anything is collected (docs/decisions.md#consent-before-capture): what it says, agreeing,
// declining, and asking again after the text changed.

describe('the hosted verification page', () => {
  const hosted = hostedPageSuite();
  const { suite, clock, page, post, act, agree, consentsOf, newTestSession, testSession, withApp } = hosted;

  describe('consent before anything else', () => {
    it('shows a pending session the consent notice first: who, what, why, how long, rights', async () => {
      const id = await newTestSession();
      const response = await page(id);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-security-policy']).toBe(HOSTED_PAGE_CSP);
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
        const id = await createdSessionId(other, hosted.acme.testKey, {
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

    it("states the organization's own retention period, in English and Kiswahili", async () => {
      await suite.db
        .update(organizations)
        .set({ verificationRetentionDays: 400 })
        .where(eq(organizations.id, hosted.acme.id));
      const id = await createdSessionId(suite.app, hosted.acme.testKey, { type: 'kyc', externalEndUserId: 'someone' });
      expect((await page(id)).body).toContain('deleted 400 days after the verification is finished');
      expect((await page(id, '?lang=sw')).body).toContain('yatafutwa siku 400 baada ya');
    });

    it("names the customer's organization as the one collecting when the session has no app name", async () => {
      const id = await createdSessionId(suite.app, hosted.acme.testKey, { type: 'kyc', externalEndUserId: 'someone' });
      const consentPage = (await page(id)).body;
      expect(consentPage).toContain('<strong>Acme Secret Holdings</strong> collects your data');
      // Once consent is given, the page is back to showing nothing of the organization.
      await agree(id);
      const statusPage = (await page(id)).body;
      expect(statusPage).toContain('id="session-status">Waiting for documents</p>');
      expect(statusPage).not.toContain('Acme Secret Holdings');
    });

    it("links to the customer's privacy notice when the session has one, sending no referrer", async () => {
      const privacyNoticeUrl = 'https://hosted.acme.example.com/privacy?section=kyc&lang=en';
      const id = await newTestSession({ privacyNoticeUrl });
      const response = await page(id);
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      const html = response.body;
      const link =
        '<a href="https://hosted.acme.example.com/privacy?section=kyc&amp;lang=en" rel="noreferrer" id="privacy-notice" class="target">' +
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
      const unnamed = await createdSessionId(suite.app, hosted.acme.testKey, {
        type: 'kyc',
        externalEndUserId: 'someone',
        privacyNoticeUrl: 'https://hosted.acme.example.com/privacy',
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
      const id = await createdSessionId(suite.app, hosted.acme.liveKey, {
        type: 'kyc',
        externalEndUserId: 'private-end-user-77',
        appName: 'Acme Wallet',
        callbackUrl: 'https://hosted.acme.example/callbacks',
        returnUrl: 'https://hosted.acme.example/back',
      });
      expect(await holdMovements(suite.db, id)).toEqual(['hold']);
      clock.advance(1000);
      const declined = await post(id, { token: testFormToken(id), action: 'decline' });
      expect(declined.statusCode).toBe(303);
      expect(declined.headers.location).toBe(`${id}?step=declined`);

      const answer = await suite.app.inject({
        method: 'GET',
        url: `/v1/verify/sessions/${id}`,
        headers: { 'x-service-api-key': hosted.acme.liveKey },
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
      expect(event).toMatchObject({ targetUrl: 'https://hosted.acme.example/callbacks' });
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
        expect(html).toContain('href="https://hosted.acme.example/back"');
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
        headers: { 'x-service-api-key': hosted.acme.testKey, 'x-idempotency-key': crypto.randomUUID() },
      });
      expect(canceled.statusCode).toBe(200);
      expect((await page(id)).body).toContain('id="session-status">Canceled</p>');
      expect((await agree(id)).headers.location).toBe(`${id}?notice=moved_on`);
      expect(await consentsOf(id)).toEqual([]);
    });
  });
});
