import { startFakeSmileId } from '@platform/backend-api/fake-smile-id';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { expectNoSeriousAxeViolations } from './axe.js';
import { VERIFY_HOST, VERIFY_URL } from './backend-api.js';
import { holdMovements, kycStatusOf, sessionRow } from './database.js';
import {
  backendCall,
  createSession,
  eventually,
  mainCall,
  signInToConsole,
  submitKycFromPhone,
  verifiedCallbacks,
} from './journey.js';
import { type RunningPlatform, startPlatform } from './platform.js';

// Issue 35, done when: a live KYC decided by Smile ID where the ID number typed (23456789) is not the one on the
// person's ID card (12345678): the registry (IPRS, the fake's record) holds another person under the typed number,
// whose names and date of birth differ, so Enhanced KYC says id_number_mismatch and the policy hands the session to
// a reviewer, the check named to the customer's key and on the reviewer's desk. Nothing is verified or captured.

const SMILE_ID = { partnerId: '2024', apiKey: 'an-e2e-smile-id-api-key' };
const TYPED_ID_NUMBER = '23456789';

interface Check {
  kind: string;
  outcome: string;
  code?: string;
  summary?: string;
}

describe.skipIf(missing(chromiumBrowser))('a live KYC whose typed ID number is not the registry’s person', () => {
  let fake: Awaited<ReturnType<typeof startFakeSmileId>>;
  let platform: RunningPlatform;
  let browser: Browser;
  /** A browser with script on, for the accessibility check of the pages the journey's browser shows without. */
  let checker: Browser;
  const personId = 'user_e2e_mismatch_person';

  beforeAll(async () => {
    fake = await startFakeSmileId({
      ...SMILE_ID,
      deliver: async (url, body) => {
        const target = url.startsWith(VERIFY_URL) ? `${platform.backendUrl}${url.slice(VERIFY_URL.length)}` : url;
        const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await answer.arrayBuffer();
        return answer.status;
      },
    });
    // The registry's record under 23456789 is someone else's: neither the names nor the date of birth match.
    fake.switches.registry = { photo: true, names: 'No Match', dob: 'No Match' };
    platform = await startPlatform({
      backendEnv: {
        VERIFICATION_DECISIONS: 'live:kyc=smile_id,live:kyb=manual',
        SMILE_ID_PARTNER_ID: SMILE_ID.partnerId,
        SMILE_ID_API_KEY: SMILE_ID.apiKey,
        SMILE_ID_BASE_URL: fake.url,
      },
    });
    await platform.addMember(platform.platform.id, personId, 'member');
    browser = await launchBrowser({ hostRules: [`MAP ${VERIFY_HOST} 127.0.0.1:${platform.backendPort}`] });
    checker = await launchBrowser({ javaScript: true });
  });
  afterAll(async () => {
    await browser?.close();
    await checker?.close();
    await platform?.close();
    await fake?.close();
  });

  it('goes to a reviewer with id_registry named, no verified callback, the hold kept', async () => {
    const { sessionId, verificationUrl } = await createSession(platform, platform.platform.liveKey, {
      type: 'kyc',
      externalEndUserId: personId,
      appName: 'Duka Wallet',
      callbackUrl: platform.callbackUrl,
    });
    expect((await sessionRow(platform.db, sessionId)).decisionSource).toBe('smile_id');

    const phone = await browser.context.newPage();
    await phone.setViewportSize(PHONE);
    const violations = policyViolationsOf(phone);
    await phone.goto(verificationUrl);
    await submitKycFromPhone(phone, verificationUrl, { documentNumber: TYPED_ID_NUMBER });

    // Smile ID looked the typed number up; the policy handed the session to a reviewer.
    await eventually(
      () => sessionRow(platform.db, sessionId),
      (row) => row.decisionSource === 'manual',
      'the session handed to a reviewer',
    );
    expect(fake.jobs.find((job) => job.kind === 'enhanced_kyc')?.idInfo).toMatchObject({
      id_number: TYPED_ID_NUMBER,
    });
    expect(await sessionRow(platform.db, sessionId)).toMatchObject({ status: 'processing', decisionSource: 'manual' });

    // The customer's key sees the failing check by name.
    const read = await backendCall(platform, platform.platform.liveKey, 'GET', `/v1/verify/sessions/${sessionId}`);
    expect(read.status).toBe(200);
    const checks = (read.json.data as { checks: Check[] }).checks;
    expect(checks).toContainEqual(
      expect.objectContaining({ kind: 'id_registry', outcome: 'attention', code: 'id_number_mismatch' }),
    );
    expect(JSON.stringify(checks)).not.toContain(TYPED_ID_NUMBER);

    // The reviewer's API and desk show it beside the documents.
    const review = await mainCall(platform, platform.reviewer.token, 'GET', `/v1/reviews/${sessionId}`);
    expect(review.status).toBe(200);
    expect(JSON.stringify(review.json.data)).toContain('id_number_mismatch');
    const desk = await browser.context.newPage();
    await desk.setViewportSize(PHONE);
    const deskViolations = policyViolationsOf(desk);
    await signInToConsole(platform, desk, platform.reviewer.token);
    await Promise.all([
      desk.waitForURL(`${platform.mainUrl}/review/sessions/${sessionId}`),
      desk.getByRole('link', { name: /KYC · Duka Wallet/ }).click(),
    ]);
    const summary = checks.find((check) => check.kind === 'id_registry')?.summary ?? '';
    expect(summary).not.toBe('');
    expect(await desk.getByText(summary).count()).toBeGreaterThan(0);
    // What the person typed on the phone, beside the number, for the reviewer to compare with the documents.
    const stated = desk.getByRole('definition');
    expect(await stated.allTextContents()).toEqual(expect.arrayContaining(['Wanjiru', 'Kamau', '1990-05-31']));
    await expectNoSeriousAxeViolations(desk, checker.context);
    await expectPhoneFriendly(desk);
    expect(violations).toEqual([]);
    expect(deskViolations).toEqual([]);

    // Nothing verified, nothing captured: the hold waits for the reviewer.
    const events = verifiedCallbacks(platform.callbacks, platform.platform.liveCallbackSecret, sessionId);
    expect(events.some((event) => event.type === 'verification_session.verified')).toBe(false);
    expect(await holdMovements(platform.db, sessionId)).toEqual(['hold']);
    expect(await kycStatusOf(platform.db, personId)).toBe('pending');
  });
});
