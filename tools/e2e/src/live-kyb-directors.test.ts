import { createApiKey } from '@platform/api-keys';
import { FAKE_DIRECTORS, startFakeSmileId } from '@platform/backend-api/fake-smile-id';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { VERIFY_HOST, VERIFY_URL } from './backend-api.js';
import { holdMovements, sessionRow } from './database.js';
import {
  backendCall,
  createSession,
  eventually,
  submitKybPapers,
  submitKycFromPhone,
  verifiedCallbacks,
} from './journey.js';
import { type Organization, type RunningPlatform, startPlatform } from './platform.js';

// Issue 35, done when: a live KYB decided by Smile ID's Business Verification, whose registry record (the fake's)
// names two directors; the business waits for them; each gets a KYC session of their own, linked from the
// business's page; each follows the link on a phone (one first in Kiswahili) and verifies (Smile ID, the fake);
// then the business is verified, its signed callback arrives once, the verified outputs list the directors with
// their results, and the hold is captured once.

const SMILE_ID = { partnerId: '2024', apiKey: 'an-e2e-smile-id-api-key' };

describe.skipIf(missing(chromiumBrowser))('a live KYB whose directors verify by link', () => {
  let fake: Awaited<ReturnType<typeof startFakeSmileId>>;
  let platform: RunningPlatform;
  let duka: Organization;
  let browser: Browser;

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
    platform = await startPlatform({
      backendEnv: {
        VERIFICATION_DECISIONS: 'live:kyc=smile_id,live:kyb=smile_id',
        SMILE_ID_PARTNER_ID: SMILE_ID.partnerId,
        SMILE_ID_API_KEY: SMILE_ID.apiKey,
        SMILE_ID_BASE_URL: fake.url,
      },
    });
    duka = await platform.addOrganization('Duka Traders');
    browser = await launchBrowser({ hostRules: [`MAP ${VERIFY_HOST} 127.0.0.1:${platform.backendPort}`] });
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
    await fake?.close();
  });

  it('waits for each director’s own KYC, then verifies the business once with its directors’ results', async () => {
    const { sessionId, verificationUrl } = await createSession(platform, duka.liveKey, {
      type: 'kyb',
      externalEndUserId: 'business-9',
      appName: 'Duka Shop',
      callbackUrl: platform.callbackUrl,
    });
    expect((await sessionRow(platform.db, sessionId)).decisionSource).toBe('smile_id');

    const business = await browser.context.newPage();
    await business.setViewportSize(PHONE);
    const violations = policyViolationsOf(business);
    await business.goto(verificationUrl);
    await submitKybPapers(business, verificationUrl, {
      registrationNumber: 'PVT-XY98ZW7',
      companyName: 'Duka Traders Limited',
      cr12: 'CR12',
      directors: ['DIRECTOR-1', 'DIRECTOR-2'],
    });

    // Business Verification names the directors: the business's page links each to a session of their own.
    const links = business.locator('#directors input[type=url]');
    await eventually(
      async () => {
        await business.goto(verificationUrl);
        return links.count();
      },
      (count) => count === FAKE_DIRECTORS.length,
      'the directors’ links on the business’s page',
    );
    for (const name of FAKE_DIRECTORS) expect(await business.getByText(name).count()).toBeGreaterThan(0);
    await expectPhoneFriendly(business);
    expect((await sessionRow(platform.db, sessionId)).status).toBe('processing');
    const urls = await links.evaluateAll((all) => all.map((input) => (input as HTMLInputElement).value));
    expect(urls.every((url) => url.startsWith(`${VERIFY_URL}/session/`))).toBe(true);

    // Each director follows their link on a phone; the first sees it in Kiswahili first.
    for (const [index, url] of urls.entries()) {
      const phone = await browser.context.newPage();
      await phone.setViewportSize(PHONE);
      const phoneViolations = policyViolationsOf(phone);
      if (index === 0) {
        await phone.goto(`${url}?lang=sw`);
        expect(await phone.locator('html').getAttribute('lang')).toBe('sw');
        await expectPhoneFriendly(phone);
      }
      await phone.goto(url);
      await submitKycFromPhone(phone, url, { documentNumber: `1234567${index}` });
      const directorId = url.split('/').at(-1) ?? '';
      await eventually(
        () => sessionRow(platform.db, directorId),
        (row) => row.status === 'verified',
        `director ${index + 1} verified`,
      );
      expect(phoneViolations).toEqual([]);
      await phone.close();
    }

    // The last director's end settles the business: verified by the policy, its callback signed, once.
    const events = await eventually(
      () => verifiedCallbacks(platform.callbacks, duka.liveCallbackSecret, sessionId),
      (received) => received.some((event) => event.type === 'verification_session.verified'),
      'the business’s verified callback',
    );
    expect(events.filter((event) => event.type === 'verification_session.verified')).toHaveLength(1);
    expect(await sessionRow(platform.db, sessionId)).toMatchObject({ status: 'verified', decisionSource: 'smile_id' });
    expect(JSON.stringify(events)).not.toContain(FAKE_DIRECTORS[0]);

    // The verified outputs, for a key given verified_data:read only.
    const plain = await backendCall(
      platform,
      duka.liveKey,
      'GET',
      `/v1/verify/sessions/${sessionId}?expand=verified_outputs`,
    );
    expect(plain.status).toBe(403);
    const reader = (
      await createApiKey(platform.db, {
        organizationId: duka.id,
        environment: 'live',
        permissions: ['verified_data:read'],
      })
    ).secret;
    const read = await backendCall(platform, reader, 'GET', `/v1/verify/sessions/${sessionId}?expand=verified_outputs`);
    expect(read.status, JSON.stringify(read.json)).toBe(200);
    const outputs = read.json.data as {
      verifiedOutputs?: {
        business?: { directors?: Array<{ name: string; sessionId: string | null; status: string | null }> };
      };
    };
    expect(outputs.verifiedOutputs?.business?.directors).toEqual(
      FAKE_DIRECTORS.map((name, index) =>
        expect.objectContaining({ name, sessionId: urls[index]?.split('/').at(-1), status: 'verified' }),
      ),
    );

    // The hold and its capture, once each (made in one transaction, so compared in the kinds' order).
    expect((await holdMovements(platform.db, sessionId)).sort()).toEqual(['capture', 'hold']);
    expect(violations).toEqual([]);
  });
});
