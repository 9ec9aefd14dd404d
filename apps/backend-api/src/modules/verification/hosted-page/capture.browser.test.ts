import { unitOfWork } from '@platform/db';
import { verificationDocuments } from '@platform/db/schema';
import { moveSession } from '@platform/verification-lifecycle';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectPhoneFriendly, PHONE } from '#test-browser';
import { chromiumBrowser, missing } from '#test-prerequisites';
import { pngImage } from '../../../../test/document-fixtures.js';
import { hostedPageBrowserSuite } from '../../../../test/hosted-page-browser-suite.js';
import { createSessionRequest, statusOf } from '../../../../test/verification-fixtures.js';

describe.skipIf(missing(chromiumBrowser))('the hosted page in headless Chromium, without JavaScript', () => {
  const suite = hostedPageBrowserSuite();

  it('a person on a live kyc session agrees, takes the photos, reviews and submits; the page then waits for the decision', async () => {
    const created = await createSessionRequest(suite.app, suite.acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'browser-live-user',
      appName: 'Acme Wallet',
    });
    expect(created.statusCode).toBe(201);
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    const photo = { name: 'photo.png', mimeType: 'image/png', buffer: await pngImage(600, 800, 'WANJIRU KAMAU') };

    const page = await suite.browser.newPage();
    await page.setViewportSize(PHONE);
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });
    await page.goto(verificationUrl);
    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=consent_recorded`),
      page.getByRole('button', { name: 'I agree' }).click(),
    ]);
    // No sandbox on a live session: the capture form is the way forward.
    expect(await page.getByRole('heading', { name: 'Sandbox controls' }).count()).toBe(0);
    expect(await page.getByRole('group', { name: 'Your ID document' }).isVisible()).toBe(true);
    await expectPhoneFriendly(page);

    await page.getByLabel('Type of ID document').selectOption('national_id');
    await page.getByLabel('ID document number').fill('27183945');
    await page.getByLabel('First name').fill('Wanjiru');
    await page.getByLabel('Last name').fill('Kamau');
    await page.getByLabel('Date of birth').fill('1990-05-31');
    await page.getByLabel('Front of the ID document').setInputFiles(photo);
    await page.getByLabel('Back of the ID document').setInputFiles(photo);
    await page.getByLabel('A selfie').setInputFiles(photo);
    await Promise.all([
      page.waitForURL(/\?step=review$/),
      page.getByRole('button', { name: 'Upload and review' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Check before you submit');
    expect(await page.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^Front of the ID document: \d+ kB$/),
      expect.stringMatching(/^Back of the ID document: \d+ kB$/),
      expect.stringMatching(/^Selfie: \d+ kB$/),
    ]);
    expect(await page.locator('img').count()).toBe(0);
    await expectPhoneFriendly(page);

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=submitted`),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Processing');
    expect(await page.locator('meta[http-equiv="refresh"]').getAttribute('content')).toBe(`10; url=${sessionId}`);
    expect(await statusOf(suite.database.db, sessionId)).toBe('processing');
    await expectPhoneFriendly(page);
    expect(policyViolations).toEqual([]);
    await page.close();
  });

  it('a person asked to send the selfie again sees why, sends only a new selfie and submits; the ID documents stay', async () => {
    const created = await createSessionRequest(suite.app, suite.acme.liveKey, {
      type: 'kyc',
      externalEndUserId: 'browser-resubmit-user',
      appName: 'Acme Wallet',
    });
    const { sessionId, verificationUrl } = created.json().data as { sessionId: string; verificationUrl: string };
    const photo = { name: 'photo.png', mimeType: 'image/png', buffer: await pngImage(600, 800, 'WANJIRU KAMAU') };
    const page = await suite.browser.newPage();
    await page.setViewportSize(PHONE);
    const policyViolations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) policyViolations.push(message.text());
    });

    // The first submission, as in the flow above.
    await page.goto(verificationUrl);
    await Promise.all([
      page.waitForURL(/notice=consent_recorded/),
      page.getByRole('button', { name: 'I agree' }).click(),
    ]);
    await page.getByLabel('Type of ID document').selectOption('national_id');
    await page.getByLabel('ID document number').fill('27183945');
    await page.getByLabel('First name').fill('Wanjiru');
    await page.getByLabel('Last name').fill('Kamau');
    await page.getByLabel('Date of birth').fill('1990-05-31');
    await page.getByLabel('Front of the ID document').setInputFiles(photo);
    await page.getByLabel('Back of the ID document').setInputFiles(photo);
    await page.getByLabel('A selfie').setInputFiles(photo);
    await Promise.all([
      page.waitForURL(/\?step=review$/),
      page.getByRole('button', { name: 'Upload and review' }).click(),
    ]);
    await Promise.all([page.waitForURL(/notice=submitted/), page.getByRole('button', { name: 'Submit' }).click()]);
    const firstSet = await suite.database.db
      .select()
      .from(verificationDocuments)
      .where(eq(verificationDocuments.sessionId, sessionId));
    expect(firstSet.map((document) => document.kind).sort()).toEqual([
      'id_document_back',
      'id_document_front',
      'selfie',
    ]);

    // A reviewer asks for the selfie again; the person comes back later.
    suite.clockOffsetMs += 60_000;
    await unitOfWork(suite.database.db, (work) =>
      moveSession(
        work,
        {
          sessionId,
          to: 'requires_input',
          actor: 'reviewer:r1',
          reason: 'Your face is not clear in the selfie',
          resubmitDocuments: ['selfie'],
          now: suite.now(),
        },
        {},
      ),
    );
    suite.clockOffsetMs += 60_000;

    await page.goto(verificationUrl);
    expect(await page.locator('#session-status').textContent()).toBe('More information needed');
    expect(await page.locator('.reason').textContent()).toBe('Reason: Your face is not clear in the selfie');
    expect(await page.getByRole('heading', { name: 'Documents to send again' }).isVisible()).toBe(true);
    expect(await page.locator('#resend-documents li').allTextContents()).toEqual(['Selfie']);
    // Only the selfie's input, as before (a camera facing the person), and no details to type again.
    const fileInputs = page.locator('input[type=file]');
    expect(await fileInputs.count()).toBe(1);
    expect(await page.getByLabel('A selfie').getAttribute('accept')).toBe('image/*');
    expect(await page.getByLabel('A selfie').getAttribute('capture')).toBe('user');
    expect(await page.getByLabel('Type of ID document').count()).toBe(0);
    expect(await page.getByLabel('ID document number').count()).toBe(0);
    await expectPhoneFriendly(page);

    await page.getByLabel('A selfie').setInputFiles(photo);
    await Promise.all([
      page.waitForURL(/\?step=review$/),
      page.getByRole('button', { name: 'Upload and review' }).click(),
    ]);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Check before you submit');
    expect(await page.locator('#review-sent-again + ul li').allTextContents()).toEqual([
      expect.stringMatching(/^Selfie: \d+ kB$/),
    ]);
    expect(await page.locator('#review-kept + ul li').allTextContents()).toEqual([
      expect.stringMatching(/^Front of the ID document: \d+ kB$/),
      expect.stringMatching(/^Back of the ID document: \d+ kB$/),
    ]);
    expect(await page.getByText('The details you submitted before are kept.').isVisible()).toBe(true);
    await expectPhoneFriendly(page);

    await Promise.all([
      page.waitForURL(`${verificationUrl}?notice=submitted`),
      page.getByRole('button', { name: 'Submit' }).click(),
    ]);
    expect(await page.locator('#session-status').textContent()).toBe('Processing');
    expect(await statusOf(suite.database.db, sessionId)).toBe('processing');
    const documents = await suite.database.db
      .select()
      .from(verificationDocuments)
      .where(eq(verificationDocuments.sessionId, sessionId));
    const oldSelfie = firstSet.find((document) => document.kind === 'selfie');
    const current = documents.filter((document) => document.supersededAt === null);
    expect(documents.find((document) => document.id === oldSelfie?.id)?.supersededAt).toEqual(expect.any(Date));
    expect(current.map((document) => document.kind).sort()).toEqual([
      'id_document_back',
      'id_document_front',
      'selfie',
    ]);
    // The ID documents are the ones first sent; the selfie is the new one.
    const idDocuments = firstSet.filter((document) => document.kind !== 'selfie').map((document) => document.id);
    expect(
      current
        .filter((document) => document.kind !== 'selfie')
        .map((document) => document.id)
        .sort(),
    ).toEqual(idDocuments.sort());
    expect(current.find((document) => document.kind === 'selfie')?.id).not.toBe(oldSelfie?.id);
    expect(policyViolations).toEqual([]);
    await page.close();
  });
});
