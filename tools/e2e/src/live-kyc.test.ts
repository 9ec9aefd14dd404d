import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { VERIFY_HOST } from './backend-api.js';
import { holdMovements, kycStatusOf, sessionRow } from './database.js';
import { createSession, eventually, signInToConsole, submitKycFromPhone, verifiedCallbacks } from './journey.js';
import { type RunningPlatform, startPlatform } from './platform.js';

// Issue "live identity verification", done when: a live KYC session created by API -> consent -> ID and selfie
// uploaded from fixture images at a phone's size -> submitted -> decided in the review console -> the page shows the
// result and sends the person to returnUrl; the callback arrives and verifies; the platform user's kycStatus is
// verified; the hold is captured once. The decided session stays on the reviewer's desk with its history.

const RETURN_URL = 'https://app.example/verified';

describe.skipIf(missing(chromiumBrowser))('a live KYC session, from the API to a reviewer, in a phone browser', () => {
  let platform: RunningPlatform;
  let browser: Browser;

  beforeAll(async () => {
    platform = await startPlatform();
    browser = await launchBrowser({ hostRules: [`MAP ${VERIFY_HOST} 127.0.0.1:${platform.backendPort}`] });
    // The customer's app behind returnUrl.
    await browser.context.route('https://app.example/**', (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: '<title>Back in the app</title><h1>Welcome back</h1>',
      }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it('verifies a platform user: documents from the phone, a decision in the console, the callback, kycStatus, one capture', async () => {
    const personId = 'user_e2e_person';
    await platform.addMember(platform.platform.id, personId, 'member');
    const { sessionId, verificationUrl } = await createSession(platform, platform.platform.liveKey, {
      type: 'kyc',
      externalEndUserId: personId,
      appName: 'Duka Wallet',
      callbackUrl: platform.callbackUrl,
      returnUrl: RETURN_URL,
    });
    expect(await kycStatusOf(platform.db, personId)).toBe('pending');

    // The person, on a small phone.
    const phone = await browser.context.newPage();
    await phone.setViewportSize(PHONE);
    const violations = policyViolationsOf(phone);
    await phone.goto(verificationUrl);
    await submitKycFromPhone(phone, verificationUrl, { documentNumber: '27183945' });

    // The reviewer, in the console.
    const desk = await browser.context.newPage();
    const deskViolations = policyViolationsOf(desk);
    await signInToConsole(platform, desk, platform.reviewer.token);
    await Promise.all([
      desk.waitForURL(`${platform.mainUrl}/review/sessions/${sessionId}`),
      desk.getByRole('link', { name: /KYC · Duka Wallet/ }).click(),
    ]);
    expect(await desk.getByText('27183945').count()).toBe(1);
    // The three photos load through their signed links, side by side.
    const images = desk.locator('figure img');
    expect(await images.count()).toBe(3);
    await eventually(
      () => images.evaluateAll((all) => all.every((image) => (image as HTMLImageElement).naturalWidth > 0)),
      (loaded) => loaded,
      'the document images to load',
    );
    await Promise.all([
      desk.waitForURL(/notice=claimed$/),
      desk.getByRole('button', { name: 'Claim for 30 minutes' }).click(),
    ]);
    await desk.getByRole('radio', { name: 'Verified' }).check();
    await Promise.all([
      desk.waitForURL(`${platform.mainUrl}/review?notice=decided`),
      desk.getByRole('button', { name: 'Record the decision' }).click(),
    ]);
    expect(await desk.getByRole('status').textContent()).toBe('The decision is recorded.');
    expect(await desk.getByText('Nothing is waiting for review.').count()).toBe(1);
    await expectPhoneFriendly(desk);
    // The decided session stays on the desk: its decision and history, the documents, no forms.
    await Promise.all([
      desk.waitForURL(`${platform.mainUrl}/review/decided`),
      desk.getByRole('link', { name: 'Decided' }).click(),
    ]);
    await Promise.all([
      desk.waitForURL(`${platform.mainUrl}/review/sessions/${sessionId}`),
      desk.getByRole('link', { name: /KYC · Duka Wallet/ }).click(),
    ]);
    expect(await desk.getByText('This session is decided').count()).toBe(1);
    expect(await desk.getByRole('row', { name: /processing → verified\s+you/ }).count()).toBe(1);
    expect(await desk.locator('figure img').count()).toBe(3);
    expect(await desk.getByRole('button', { name: 'Record the decision' }).count()).toBe(0);
    await expectPhoneFriendly(desk);
    expect(deskViolations).toEqual([]);

    // The person's page refreshes itself to the result, and sends them back to the app.
    await eventually(
      () => phone.locator('#session-status').textContent(),
      (status) => status === 'Verified',
      'the status page to show the result',
    );
    await expectPhoneFriendly(phone);
    await Promise.all([
      phone.waitForURL(RETURN_URL),
      phone.getByRole('link', { name: 'Continue to Duka Wallet' }).click(),
    ]);
    expect(await phone.title()).toBe('Back in the app');
    expect(violations).toEqual([]);

    const events = await eventually(
      () => verifiedCallbacks(platform.callbacks, platform.platform.liveCallbackSecret, sessionId),
      (received) => received.some((event) => event.type === 'verification_session.verified'),
      'the verified callback',
    );
    expect(events.filter((event) => event.type === 'verification_session.verified')).toHaveLength(1);
    expect(await kycStatusOf(platform.db, personId)).toBe('verified');
    expect(await holdMovements(platform.db, sessionId)).toEqual(['capture', 'hold']);
    expect((await sessionRow(platform.db, sessionId)).status).toBe('verified');
  });
});
