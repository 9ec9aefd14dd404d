import { type DocumentKind, unitOfWork } from '@platform/db';
import { verificationDocuments, verificationSessions } from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import { moveSession } from '@platform/verification-lifecycle';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  replaceOrganizations,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from '../../../../test/app-fixtures.js';
import { type FormPart, pngImage, storedFiles, temporaryVault } from '../../../../test/document-fixtures.js';
import {
  HOSTED_PAGE_TEST_SECRET,
  hostedPageRequests,
  imagePart,
  landing,
  pdfPart,
  statedPersonParts,
  testFormToken,
} from '../../../../test/hosted-page-fixtures.js';
import {
  createdSessionId,
  fundWallet,
  statusOf,
  truncateVerificationData,
} from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';

// The hosted page after a requires_input decision (docs/decisions.md#resubmission): with documents named, it shows
// the reason and those documents, asks only for them (not the details again), reviews what is sent and what is kept,
// and submits; with none named, it is the page it was before.

const REASON = 'The selfie is too dark';
const database = useTestDatabase();
const clock = testClock();
let app: BackendApp;
let vault: DocumentVault;
let directory: string;
let removeFolder: () => Promise<void>;
let acme: TestOrganization;
let portrait: Buffer;

beforeAll(async () => {
  ({ vault, directory, remove: removeFolder } = await temporaryVault());
  app = await buildTestApp(database.handle, {
    now: clock.now,
    vault,
    env: { HOSTED_PAGE_SECRET: HOSTED_PAGE_TEST_SECRET },
  });
  portrait = await pngImage(600, 800, 'WANJIRU KAMAU');
});
afterAll(async () => {
  await app?.close();
  await removeFolder?.();
});
beforeEach(async () => {
  await truncateVerificationData(database.db);
  [acme] = await replaceOrganizations(database.db, 'Acme');
  await fundWallet(database.db, acme.id, 'live', 10_000);
});

const { page, post, upload } = hostedPageRequests(() => app);
/** The portrait (or `data`) sent as a picture in `field`. */
const image = (field: string, data: Buffer = portrait) => imagePart(field, data);
const sealedDraftIn = (html: string) => /name="details" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** Uploads `parts` on the page, reviews and submits: the session is then processing. */
async function sendAndSubmit(id: string, parts: FormPart[]) {
  const uploaded = await upload(id, parts);
  expect(landing(uploaded.headers.location)).toBe('?step=review');
  const review = (await page(id, '?step=review')).body;
  const submitted = await post(id, {
    token: testFormToken(id),
    action: 'confirm',
    details: sealedDraftIn(review),
  });
  expect(submitted.headers.location).toBe(`${id}?notice=submitted`);
  return review;
}

/** A live session submitted on the page, then decided by a reviewer: requires_input asking for `documents`. */
async function decidedSession(type: 'kyc' | 'kyb', documents: DocumentKind[]) {
  const id = await createdSessionId(app, acme.liveKey, { type, externalEndUserId: 'person-1', appName: 'Acme Wallet' });
  expect((await post(id, { token: testFormToken(id), action: 'agree' })).statusCode).toBe(303);
  const parts =
    type === 'kyc'
      ? [
          { field: 'idType', data: 'national_id' },
          { field: 'idNumber', data: '27183945' },
          ...statedPersonParts,
          image('id_document_front'),
          image('id_document_back'),
          image('selfie'),
        ]
      : [
          { field: 'registrationNumber', data: 'PVT-AB12CD3' },
          await pdfPart('certificate_of_incorporation'),
          await pdfPart('cr12'),
          await pdfPart('kra_pin_certificate'),
          image('director_id'),
          image('director_id'),
        ];
  await sendAndSubmit(id, parts);
  clock.advance(60_000);
  await unitOfWork(database.db, (work) =>
    moveSession(
      work,
      {
        sessionId: id,
        to: 'requires_input',
        actor: 'reviewer:r1',
        reason: REASON,
        resubmitDocuments: documents,
        now: clock.now(),
      },
      {},
    ),
  );
  clock.advance(60_000);
  return id;
}

const documentsOf = (id: string) =>
  database.db
    .select()
    .from(verificationDocuments)
    .where(eq(verificationDocuments.sessionId, id))
    .orderBy(verificationDocuments.createdAt, verificationDocuments.kind);
const currentKinds = async (id: string) =>
  (await documentsOf(id)).filter((document) => document.supersededAt === null).map((document) => document.kind);

describe('the hosted page when a decision names documents to send again', () => {
  it('shows the reason and only the selfie, then takes the new selfie through review to processing, keeping the rest', async () => {
    const id = await decidedSession('kyc', ['selfie']);
    const html = (await page(id)).body;
    expect(html).toContain(`<p class="reason"><strong>Reason:</strong> ${REASON}</p>`);
    expect(html).toContain('<h2 id="documents-heading">Documents to send again</h2>');
    expect(html).toContain('<ul id="resend-documents"><li>Selfie</li></ul>');
    expect(html).toMatch(/<input type="file" id="field-selfie" name="selfie" accept="image\/\*" capture="user"/);
    expect(html).not.toContain('id="field-id_document_front"');
    expect(html).not.toContain('id="field-id_document_back"');
    // The details were submitted before: not asked again.
    expect(html).not.toContain('id="field-idType"');
    expect(html).not.toContain('id="field-idNumber"');
    expect(html).toContain('The details you submitted before are kept.');
    expect(html).toContain('Send only the documents listed above. Your other documents are kept as you sent them.');
    // The earlier selfie is being replaced: it is not shown as received.
    expect(html).not.toContain('Received:');

    // Nothing chosen: the selfie must be sent again.
    const empty = await upload(id, [
      { field: 'selfie', filename: '', contentType: 'application/octet-stream', data: Buffer.alloc(0) },
    ]);
    expect(landing(empty.headers.location)).toBe('?errors=selfie.resend');
    expect((await page(id, '?errors=selfie.resend')).body).toContain(
      '<a href="#field-selfie">Choose a new file: this document must be sent again.</a>',
    );

    // A form from before the decision, with the front of the ID: nothing is stored.
    const filesBefore = (await storedFiles(directory)).length;
    const stale = await upload(id, [image('selfie'), image('id_document_front')]);
    expect(landing(stale.headers.location)).toBe('?notice=moved_on');
    expect(await documentsOf(id)).toHaveLength(3);
    expect((await storedFiles(directory)).length).toBe(filesBefore);

    const sent = await upload(id, [image('selfie')]);
    expect(landing(sent.headers.location)).toBe('?step=review');
    const review = (await page(id, '?step=review')).body;
    expect(review).toContain('<h2 id="review-sent-again">Sent again</h2>');
    expect(review).toMatch(/<h2 id="review-sent-again">Sent again<\/h2>\s*<ul><li>Selfie: \d+ kB<\/li><\/ul>/);
    expect(review).toMatch(
      /<h2 id="review-kept">Kept from before<\/h2>\s*<ul><li>Front of the ID document: \d+ kB<\/li><li>Back of the ID document: \d+ kB<\/li><\/ul>/,
    );
    expect(review).toContain('<p>The details you submitted before are kept.</p>');
    expect(review).not.toContain('<dl>');

    const submitted = await post(id, {
      token: testFormToken(id),
      action: 'confirm',
      details: sealedDraftIn(review),
    });
    expect(submitted.headers.location).toBe(`${id}?notice=submitted`);
    expect(await statusOf(database.db, id)).toBe('processing');
    const documents = await documentsOf(id);
    expect(documents.filter((document) => document.kind === 'selfie').map((document) => document.supersededAt)).toEqual(
      [expect.any(Date), null],
    );
    expect((await currentKinds(id)).sort()).toEqual(['id_document_back', 'id_document_front', 'selfie']);
    const [row] = await database.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, id));
    const opened = vault.open(`kyc/${id}/details`, Buffer.from(row?.details ?? Buffer.alloc(0)));
    expect(JSON.parse(opened.bytes.toString())).toEqual({
      type: 'kyc',
      idType: 'national_id',
      idNumber: '27183945',
      firstName: 'Wanjiru',
      lastName: 'Kamau',
      dateOfBirth: '1990-05-31',
    });
  });

  it('says it in Kiswahili', async () => {
    const id = await decidedSession('kyc', ['selfie', 'id_document_back']);
    const html = (await page(id, '?lang=sw')).body;
    expect(html).toContain('<h2 id="documents-heading">Hati za kutuma tena</h2>');
    expect(html).toContain(
      '<ul id="resend-documents"><li>Upande wa nyuma wa kitambulisho</li><li>Selfie (picha ya uso)</li></ul>',
    );
    expect(html).toContain('Maelezo uliyowasilisha awali yanabaki.');
  });

  it('asks for the ID of every director again when director IDs are named', async () => {
    const id = await decidedSession('kyb', ['director_id']);
    const html = (await page(id)).body;
    expect(html).toContain('<ul id="resend-documents"><li>Director&#39;s ID</li></ul>');
    expect(html).toContain('Send the ID of every director again: the new files replace all the earlier ones.');
    expect(html).toMatch(
      /<input type="file" id="field-director_id" name="director_id" accept="image\/\*,application\/pdf" multiple/,
    );
    expect(html).not.toContain('id="field-cr12"');
    expect(html).not.toContain('id="field-registrationNumber"');

    await sendAndSubmit(id, [image('director_id')]);
    expect(await statusOf(database.db, id)).toBe('processing');
    expect((await currentKinds(id)).filter((kind) => kind === 'director_id')).toHaveLength(1);
  });
});

describe('the hosted page when a decision names no documents', () => {
  it('is the page it was: every document and the details may be sent again', async () => {
    const id = await decidedSession('kyc', []);
    const html = (await page(id)).body;
    expect(html).toContain(`<p class="reason"><strong>Reason:</strong> ${REASON}</p>`);
    expect(html).toContain('<h2 id="documents-heading">Documents you need</h2>');
    expect(html).not.toContain('resend-documents');
    for (const field of ['idType', 'idNumber', 'id_document_front', 'id_document_back', 'selfie']) {
      expect(html).toContain(`id="field-${field}"`);
    }
    expect(html).toContain('Send again what the reason above asks for');
    expect(html.match(/Received: \d+ kB/g)).toHaveLength(3);
  });
});
