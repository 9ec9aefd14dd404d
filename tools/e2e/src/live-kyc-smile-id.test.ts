import { startFakeSmileId } from '@platform/backend-api/fake-smile-id';
import { allowDemoOrigin, type SdkDemo, startSdkDemo } from '@platform/local-start/sdk-demo';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { VERIFY_HOST, VERIFY_URL } from './backend-api.js';
import { builtSdkModules } from './built-sdk.js';
import { holdLedger, kycStatusOf, sessionRow } from './database.js';
import { eventually, mainCall, submitKycFromPhone, verifiedCallbacks } from './journey.js';
import { type RunningPlatform, startPlatform } from './platform.js';

// Issue "automated decisions through Smile ID, and the front-end SDK", done when: at a phone's size, a live KYC
// session opened through the SDK's popup mode from a demo page -> consent -> documents -> submitted -> Smile ID (the
// fake, speaking its protocol over HTTP) calls back -> the demo page receives verification.completed with verified;
// the customer's callback arrives and verifies; kycStatus is verified; the hold is captured once.
//
// The demo page is the local start's (a customer's web app and backend), serving the SDK as built, on an origin the
// platform organization allows for live sessions through main-api's route.

const SMILE_ID = { partnerId: '2024', apiKey: 'an-e2e-smile-id-api-key' };
/** The demo page's origin: a *.localhost name, a secure context in Chromium as an https shop would be. */
const SHOP = 'http://shop.localhost';
const PRICE_KYC = 50;
const FUNDED = 10_000;

interface DemoEvent {
  type: string;
  status?: string;
}

describe.skipIf(missing(chromiumBrowser))(
  'a live KYC session opened by the SDK in a popup and decided by Smile ID',
  () => {
    let fake: Awaited<ReturnType<typeof startFakeSmileId>>;
    let platform: RunningPlatform;
    let demo: SdkDemo;
    let browser: Browser;
    /** A developer of the platform organization, who sets its allowed origins. */
    let developerToken: string;
    const personId = 'user_e2e_smile_person';

    beforeAll(async () => {
      fake = await startFakeSmileId({
        ...SMILE_ID,
        // Smile ID calls back the public VERIFY_URL, which here is backend-api, as the browser's host rules say.
        deliver: async (url, body) => {
          const target = url.startsWith(VERIFY_URL) ? `${platform.backendUrl}${url.slice(VERIFY_URL.length)}` : url;
          const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          await answer.arrayBuffer();
          return answer.status;
        },
      });
      // The result waits until the person has seen the page say "submitted" (sendHeldCallbacks), so the order of
      // the events the demo page hears does not depend on which of the two is faster.
      fake.switches.callbacks = 'held';
      platform = await startPlatform({
        backendEnv: {
          // What the local start's VERIFICATION_PROVIDER_KYC=smile_id sets for live sessions: Smile ID decides kyc.
          VERIFICATION_DECISIONS: 'live:kyc=smile_id,live:kyb=manual',
          SMILE_ID_PARTNER_ID: SMILE_ID.partnerId,
          SMILE_ID_API_KEY: SMILE_ID.apiKey,
          SMILE_ID_BASE_URL: fake.url,
        },
      });
      await platform.addMember(platform.platform.id, personId, 'member');

      // The customer's web app and backend: creates the platform user's live session with its callbackUrl.
      demo = await startSdkDemo({
        host: '127.0.0.1',
        port: '0',
        backendUrl: platform.backendUrl,
        apiKey: platform.platform.liveKey,
        returnHere: false,
        session: { externalEndUserId: personId, callbackUrl: platform.callbackUrl },
        modules: builtSdkModules(),
        // The browser opens the demo page at the shop's host (mapped to this server below).
        pageOrigins: [SHOP],
      });
      const developerId = 'user_e2e_developer';
      await platform.addMember(platform.platform.id, developerId, 'developer');
      developerToken = await platform.tokenFor(developerId);
      await allowDemoOrigin({
        mainUrl: platform.mainUrl,
        token: developerToken,
        organizationId: platform.platform.id,
        origin: SHOP,
        environment: 'live',
      });

      const demoPort = new URL(demo.url).port;
      browser = await launchBrowser({
        javaScript: true,
        // The demo opens the popup after asking its backend for a session: with the popup blocker on, that would
        // depend on the answer coming within the browser's user-activation window.
        popupBlocking: false,
        hostRules: [`MAP ${VERIFY_HOST} 127.0.0.1:${platform.backendPort}`, `MAP shop.localhost 127.0.0.1:${demoPort}`],
      });
    });
    afterAll(async () => {
      await browser?.close();
      await demo?.stop();
      await platform?.close();
      await fake?.close();
    });

    /** What the demo page lists under "Events", in order. */
    const recorded = async (page: Page): Promise<DemoEvent[]> =>
      (await page.locator('#events li').allTextContents()).map((text) => JSON.parse(text) as DemoEvent);

    it('verifies the person: popup from the demo page, Smile ID’s callback, the events, the signed callback, kycStatus, one capture', async () => {
      const allowed = await mainCall(
        platform,
        developerToken,
        'GET',
        `/v1/organizations/${platform.platform.id}/allowed-origins`,
      );
      expect(allowed.json.data).toEqual({ live: [SHOP], test: [] });

      // The customer's web app, on a small phone, with the SDK as built.
      const shop = await browser.context.newPage();
      await shop.setViewportSize(PHONE);
      await shop.goto(`${SHOP}/`);
      expect(await shop.evaluate(() => document.querySelector('script[type=module]')?.textContent)).toContain(
        "from '/sdk/index.js'",
      );
      expect(await (await fetch(`${demo.url}/sdk/index.js`)).text()).toBe(builtSdkModules().get('index.js'));
      await expectPhoneFriendly(shop);
      const [popup] = await Promise.all([
        shop.waitForEvent('popup'),
        shop.getByRole('button', { name: 'Verify in a popup' }).click(),
      ]);
      await popup.setViewportSize(PHONE);
      await popup.waitForLoadState();
      const violations = policyViolationsOf(popup);

      // The popup is the session's page, told by the SDK whom to report to.
      const opened = new URL(popup.url());
      expect(opened.origin).toBe(VERIFY_URL);
      expect(Object.fromEntries(opened.searchParams)).toEqual({ sdk: 'popup', origin: SHOP });
      const verificationUrl = `${opened.origin}${opened.pathname}`;
      const sessionId = opened.pathname.split('/').at(-1) ?? '';
      expect(await sessionRow(platform.db, sessionId)).toMatchObject({
        environment: 'live',
        externalEndUserId: personId,
        decisionSource: 'smile_id',
      });
      expect(await kycStatusOf(platform.db, personId)).toBe('pending');
      expect(await popup.getByRole('heading', { level: 1 }).textContent()).toBe('Before you start: your personal data');
      await expectPhoneFriendly(popup);

      // Consent, the ID document and a selfie, submitted: every step keeps the SDK's query.
      await submitKycFromPhone(popup, verificationUrl, {
        documentNumber: '31415926',
        keep: { sdk: 'popup', origin: SHOP },
      });
      await eventually(
        () => recorded(shop),
        (events) => events.length >= 1,
        'the demo page to hear the submission',
      );
      expect(await recorded(shop)).toEqual([{ type: 'verification.submitted' }]);

      // Smile ID looked the ID number up in the registry (Enhanced KYC), then matched the selfie with the registry's
      // photo (Biometric KYC of a Kenyan national ID), whose result it sends.
      const job = await eventually(
        () => fake.jobs.find((each) => each.kind === 'biometric_kyc' && each.complete),
        (found) => found !== undefined,
        'the job at Smile ID',
      );
      expect(fake.jobs.map((each) => each.kind)).toEqual(['enhanced_kyc', 'biometric_kyc']);
      expect(job).toMatchObject({
        partnerParams: { job_type: 1 },
        idInfo: { country: 'KE', id_type: 'NATIONAL_ID' },
      });
      expect(job?.images.map((image) => image.imageTypeId)).toContain(2);
      expect(job?.callbackUrl).toBe(`${VERIFY_URL}/v1/providers/smile-id/callback`);
      expect((await sessionRow(platform.db, sessionId)).status).toBe('processing');
      await fake.sendHeldCallbacks();
      expect(fake.callbacksSent).toEqual([{ jobId: job?.partnerParams.job_id, status: 200 }]);

      // The processing page reloads itself to the result and tells the demo page.
      await eventually(
        () => recorded(shop),
        (events) => events.length >= 2,
        'the demo page to hear the result',
      );
      expect(await recorded(shop)).toEqual([
        { type: 'verification.submitted' },
        { type: 'verification.completed', status: 'verified' },
      ]);
      expect(await popup.locator('#session-status').textContent()).toBe('Verified');
      await expectPhoneFriendly(popup);
      expect(violations).toEqual([]);
      await popup.close();
      await eventually(
        () => recorded(shop),
        (events) => events.length >= 3,
        'the demo page to hear the popup closed',
      );
      expect((await recorded(shop)).at(-1)).toEqual({ type: 'verification.closed' });

      // The customer's server: the signed callback (a bad signature would throw), once.
      const events = await eventually(
        () => verifiedCallbacks(platform.callbacks, platform.platform.liveCallbackSecret, sessionId),
        (received) => received.some((event) => event.type === 'verification_session.verified'),
        'the verified callback',
      );
      const verified = events.filter((event) => event.type === 'verification_session.verified');
      expect(verified).toHaveLength(1);
      expect(verified[0]?.data).toMatchObject({
        sessionId,
        type: 'kyc',
        status: 'verified',
        previousStatus: 'processing',
        environment: 'live',
        externalEndUserId: personId,
      });

      expect(await kycStatusOf(platform.db, personId)).toBe('verified');
      expect(await sessionRow(platform.db, sessionId)).toMatchObject({
        status: 'verified',
        decisionSource: 'smile_id',
      });
      // The hold, then its capture, once: the live wallet paid the price and holds nothing more.
      expect(await holdLedger(platform.db, sessionId)).toEqual([
        { kind: 'hold', amount: PRICE_KYC, availableAfter: FUNDED - PRICE_KYC, heldAfter: PRICE_KYC },
        { kind: 'capture', amount: PRICE_KYC, availableAfter: FUNDED - PRICE_KYC, heldAfter: 0 },
      ]);
    });
  },
);
