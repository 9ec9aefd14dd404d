import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Browser, expectPhoneFriendly, launchBrowser, PHONE, policyViolationsOf } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { VERIFY_HOST } from './backend-api.js';
import { currentDocuments, holdMovements, sessionRow } from './database.js';
import { paperFile } from './documents.js';
import { createSession, eventually, signInToConsole, submitKybPapers, verifiedCallbacks } from './journey.js';
import { type Organization, type RunningPlatform, startPlatform } from './platform.js';

// Issue "live identity verification", done when: a KYB session with PDFs goes through requires_input and a
// resubmission of one document, decided in the review console, at a phone's size.

const RETURN_URL = 'https://shop.example/business-verified';

describe.skipIf(missing(chromiumBrowser))('a live KYB session with PDFs, asked once for a document again', () => {
  let platform: RunningPlatform;
  let duka: Organization;
  let browser: Browser;

  beforeAll(async () => {
    platform = await startPlatform();
    duka = await platform.addOrganization('Duka Traders');
    browser = await launchBrowser({ hostRules: [`MAP ${VERIFY_HOST} 127.0.0.1:${platform.backendPort}`] });
    await browser.context.route('https://shop.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Back at the shop</title><h1>Thanks</h1>' }),
    );
  });
  afterAll(async () => {
    await browser?.close();
    await platform?.close();
  });

  it('takes the papers, asks for the CR12 again, takes the new one only, and is verified', async () => {
    const { sessionId, verificationUrl } = await createSession(platform, duka.liveKey, {
      type: 'kyb',
      externalEndUserId: 'business-7',
      appName: 'Duka Shop',
      callbackUrl: platform.callbackUrl,
      returnUrl: RETURN_URL,
    });

    const phone = await browser.context.newPage();
    await phone.setViewportSize(PHONE);
    const violations = policyViolationsOf(phone);
    await phone.goto(verificationUrl);
    await submitKybPapers(
      phone,
      verificationUrl,
      {
        registrationNumber: 'PVT-AB12CD3',
        companyName: 'Duka Traders Limited',
        cr12: 'CR12-OLD',
        directors: ['DIRECTOR-1', 'DIRECTOR-2'],
      },
      expectPhoneFriendly,
    );
    expect(await phone.locator('#session-status').textContent()).toBe('Processing');
    const firstCr12 = (await currentDocuments(platform.db, sessionId)).find((document) => document.kind === 'cr12');

    // The reviewer opens the papers (signed links to the PDFs) and asks for the CR12 again.
    const desk = await browser.context.newPage();
    await desk.setViewportSize(PHONE);
    const deskViolations = policyViolationsOf(desk);
    await signInToConsole(platform, desk, platform.reviewer.token);
    await desk.goto(`${platform.mainUrl}/review/sessions/${sessionId}`);
    expect(await desk.getByText('PVT-AB12CD3').count()).toBe(1);
    const pdfLinks = desk.getByRole('link', { name: /Download the PDF/ });
    expect(await pdfLinks.count()).toBe(5);
    const opened = await fetch(`${platform.mainUrl}${(await pdfLinks.first().getAttribute('href')) ?? ''}`);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('application/pdf');
    // A download for the reviewer's own reader, never a page of the console's origin that could run anything.
    expect(opened.headers.get('content-disposition')).toMatch(/^attachment; filename="[a-z_]+\.pdf"$/);
    expect(opened.headers.get('content-security-policy')).toMatch(/^sandbox;/);
    expect(
      Buffer.from(await opened.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    await expectPhoneFriendly(desk);

    await desk.getByRole('radio', { name: 'Ask for documents again' }).check();
    await desk.getByLabel('Reason').fill('The CR12 must be less than 12 months old');
    await desk.getByRole('checkbox', { name: 'CR12' }).check();
    await Promise.all([
      desk.waitForURL(`${platform.mainUrl}/review?notice=decided`),
      desk.getByRole('button', { name: 'Record the decision' }).click(),
    ]);

    // The person's page shows why and asks for the CR12 only.
    await eventually(
      () => phone.locator('#session-status').textContent(),
      (status) => status === 'More information needed',
      'the page to ask for input',
    );
    expect(await phone.locator('.reason').textContent()).toBe('Reason: The CR12 must be less than 12 months old');
    expect(await phone.locator('input[type=file]').count()).toBe(1);
    await phone.getByLabel('CR12').setInputFiles(await paperFile('CR12-NEW'));
    await Promise.all([
      phone.waitForURL(/\?step=review$/),
      phone.getByRole('button', { name: 'Upload and review' }).click(),
    ]);
    await Promise.all([
      phone.waitForURL(`${verificationUrl}?notice=submitted`),
      phone.getByRole('button', { name: 'Submit' }).click(),
    ]);
    const current = await currentDocuments(platform.db, sessionId);
    expect(current.map((document) => document.kind).sort()).toEqual([
      'certificate_of_incorporation',
      'cr12',
      'director_id',
      'director_id',
      'kra_pin_certificate',
    ]);
    expect(current.find((document) => document.kind === 'cr12')?.id).not.toBe(firstCr12?.id);

    // Back in the queue; verified this time.
    await desk.goto(`${platform.mainUrl}/review/sessions/${sessionId}`);
    await desk.getByRole('radio', { name: 'Verified' }).check();
    await Promise.all([
      desk.waitForURL(`${platform.mainUrl}/review?notice=decided`),
      desk.getByRole('button', { name: 'Record the decision' }).click(),
    ]);
    expect(deskViolations).toEqual([]);

    await eventually(
      () => phone.locator('#session-status').textContent(),
      (status) => status === 'Verified',
      'the page to show the result',
    );
    await Promise.all([
      phone.waitForURL(RETURN_URL),
      phone.getByRole('link', { name: 'Continue to Duka Shop' }).click(),
    ]);
    expect(violations).toEqual([]);

    const events = await eventually(
      () => verifiedCallbacks(platform.callbacks, duka.liveCallbackSecret, sessionId),
      (received) => received.some((event) => event.type === 'verification_session.verified'),
      'the verified callback',
    );
    const asked = events.find((event) => event.type === 'verification_session.requires_input') as
      | { data: { resubmitDocuments: string[]; lastError: string } }
      | undefined;
    expect(asked?.data).toMatchObject({
      resubmitDocuments: ['cr12'],
      lastError: 'The CR12 must be less than 12 months old',
    });
    expect(events.filter((event) => event.type === 'verification_session.verified')).toHaveLength(1);
    expect(await holdMovements(platform.db, sessionId)).toEqual(['capture', 'hold']);
    expect((await sessionRow(platform.db, sessionId)).status).toBe('verified');
  });
});
