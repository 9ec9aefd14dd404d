import { verificationConsents, verificationDocuments, verificationSessions } from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  replaceOrganizations,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from '../../../../test/app-fixtures.js';
import {
  type FormPart,
  pdfDocument,
  pngImage,
  storedFiles,
  temporaryVault,
} from '../../../../test/document-fixtures.js';
import {
  HOSTED_PAGE_TEST_SECRET,
  hostedPageRequests,
  imagePart,
  landing,
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
import { CONSENT_TEXT_VERSION } from './service.js';

// The hosted page's capture: the form's files through the capture by API's path, the review step, the submit, the
// status and final pages. Fixtures are made by the tests (sharp, pdf-lib).

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

async function liveSession(body: object = {}) {
  const id = await createdSessionId(app, acme.liveKey, {
    type: 'kyc',
    externalEndUserId: 'person-1',
    appName: 'Acme Wallet',
    ...body,
  });
  const agreed = await post(id, { token: testFormToken(id), action: 'agree' });
  expect(agreed.statusCode).toBe(303);
  return id;
}
const documentsOf = (id: string) =>
  database.db.select().from(verificationDocuments).where(eq(verificationDocuments.sessionId, id));
const filesOf = async (id: string) => (await storedFiles(directory)).filter((file) => file.path.includes(id));

describe('capture on the hosted page', () => {
  it('decides a test session submitted with a test ID number: 00000003 asks for the selfie again', async () => {
    const id = await createdSessionId(app, acme.testKey, { type: 'kyc', externalEndUserId: 'person-1' });
    expect((await post(id, { token: testFormToken(id), action: 'agree' })).statusCode).toBe(303);
    const uploaded = await upload(id, [
      { field: 'idType', data: 'national_id' },
      { field: 'idNumber', data: '00000003' },
      ...statedPersonParts,
      imagePart('id_document_front', portrait),
      imagePart('id_document_back', portrait),
      imagePart('selfie', portrait),
    ]);
    const review = await page(id, landing(uploaded.headers.location));
    const details = /name="details" value="([^"]+)"/.exec(review.body)?.[1] ?? '';
    const submitted = await post(id, { token: testFormToken(id), action: 'confirm', details });
    expect(landing(submitted.headers.location)).toBe('?notice=submitted');
    expect(await statusOf(database.db, id)).toBe('requires_input');
    const asked = await page(id);
    expect(asked.body).toContain('Documents to send again');
    expect(asked.body).toContain('test value 00000003');
  });

  it('shows the kyc form after consent: labelled fields, file inputs with the camera, multipart to <id>/documents', async () => {
    const id = await liveSession();
    const html = (await page(id)).body;
    expect(html).toContain(`<form method="post" action="${id}/documents" enctype="multipart/form-data"`);
    expect(html).toContain('<legend>Your ID document</legend>');
    expect(html).toContain('<label for="field-idType">Type of ID document</label>');
    expect(html).toContain('<option value="passport">Passport</option>');
    expect(html).toContain('<label for="field-idNumber">ID document number</label>');
    expect(html).toMatch(
      /<input type="file" id="field-id_document_front" name="id_document_front" accept="image\/\*" capture="environment"/,
    );
    expect(html).toMatch(
      /<input type="file" id="field-id_document_back" name="id_document_back" accept="image\/\*" capture="environment"/,
    );
    expect(html).toMatch(/<input type="file" id="field-selfie" name="selfie" accept="image\/\*" capture="user"/);
    expect(html).toContain('Upload and review');
    expect(html).not.toMatch(/<script|src=/);
  });

  it('takes a kyc session through upload, review and submit to processing, which refreshes itself', async () => {
    const id = await liveSession();
    const uploaded = await upload(id, [
      { field: 'idType', data: 'national_id' },
      { field: 'idNumber', data: ' 27183945 ' },
      ...statedPersonParts,
      imagePart('id_document_front', portrait),
      imagePart('id_document_back', portrait),
      imagePart('selfie', portrait),
    ]);
    expect(uploaded.statusCode).toBe(303);
    expect(uploaded.headers.location).toMatch(new RegExp(`^\\.\\./${id}\\?step=review$`));
    expect(uploaded.headers.location).not.toContain('27183945');
    const draftOnSession = async () =>
      (
        await database.db
          .select({ draft: verificationSessions.hostedPageDraft })
          .from(verificationSessions)
          .where(eq(verificationSessions.id, id))
      )[0]?.draft;
    // Kept on the session between the steps, sealed: the number is not readable there either.
    expect(await draftOnSession()).toEqual(expect.any(String));
    expect(await draftOnSession()).not.toContain('27183945');
    expect((await documentsOf(id)).map((document) => document.kind).sort()).toEqual([
      'id_document_back',
      'id_document_front',
      'selfie',
    ]);

    const review = await page(id, landing(uploaded.headers.location));
    expect(review.statusCode).toBe(200);
    expect(review.body).toContain('<h1>Check before you submit</h1>');
    expect(review.body).toContain('<dd>National ID card</dd>');
    expect(review.body).toContain('<dd>27183945</dd>');
    expect(review.body).toMatch(/<li>Front of the ID document: \d+ kB<\/li>/);
    expect(review.body).toMatch(/<li>Selfie: \d+ kB<\/li>/);
    expect(review.body).not.toMatch(/<img|data:image/);
    expect(review.body).toContain('value="confirm" class="primary">Submit</button>');
    expect(review.body).toContain('value="change" class="secondary">Change</button>');
    const details = /name="details" value="([^"]+)"/.exec(review.body)?.[1] ?? '';

    // Change goes back to the form with what was typed.
    const changed = await post(id, { token: testFormToken(id), action: 'change', details });
    expect(landing(changed.headers.location)).toBe('?step=change');
    const form = (await page(id, landing(changed.headers.location))).body;
    expect(form).toContain('value="27183945"');
    expect(form).toContain('<option value="national_id" selected="">');
    expect(form).toMatch(/Received: \d+ kB\. Choose a file only to replace it\./);

    const submitted = await post(id, { token: testFormToken(id), action: 'confirm', details });
    expect(submitted.headers.location).toBe(`${id}?notice=submitted`);
    expect(await statusOf(database.db, id)).toBe('processing');
    const status = (await page(id, '?notice=submitted')).body;
    expect(status).toContain('id="session-status">Processing</p>');
    expect(status).toContain(`<meta http-equiv="refresh" content="10; url=${id}"/>`);
    expect(status).not.toContain('enctype="multipart/form-data"');
    // The typed details were kept on the session only until the submit.
    expect(await draftOnSession()).toBeNull();
  });

  it('asks for the names and date of birth, says each error at its field in en and sw, keeps what was typed', async () => {
    const id = await liveSession();
    const uploaded = await upload(id, [
      { field: 'idType', data: 'passport' },
      { field: 'idNumber', data: 'AK1234567' },
      { field: 'firstName', data: 'W4njiru' },
      { field: 'dateOfBirth', data: '2999-01-01' },
      { field: 'nationality', data: 'ZZZ' },
      { field: 'mrz', data: 'P<KEN' },
      imagePart('id_document_front', portrait),
      imagePart('selfie', portrait),
    ]);
    const query = landing(uploaded.headers.location);
    const html = (await page(id, query)).body;
    expect(html).toContain('<p class="field-error" id="error-firstName">Enter your first name as on your ID document');
    expect(html).toContain('<a href="#field-lastName">Enter your last name.</a>');
    expect(html).toContain('<a href="#field-dateOfBirth">Enter a real date of birth, from 1900 to today');
    expect(html).toContain('<a href="#field-nationality">Choose your nationality from the list.</a>');
    expect(html).toContain('<a href="#field-mrz">These are not the passport');
    expect(html).toMatch(/id="field-firstName"[^>]*value="W4njiru"/);
    expect(html).toMatch(/id="field-dateOfBirth"[^>]*value="2999-01-01"/);
    expect(html).toMatch(/id="field-mrz"[^>]*>P&lt;KEN<\/textarea>/);
    const sw = (await page(id, `${query}&lang=sw`)).body;
    expect(sw).toContain('<a href="#field-lastName">Weka jina lako la mwisho.</a>');
    expect(sw).toContain('<option value="TZA">Tanzania');
    expect(sw).toMatch(/<option value="KEN">Kenya<\/option>/);
    expect(await statusOf(database.db, id)).toBe('pending');
  });

  it('seals the stated names, dates, nationality and MRZ with the submission, listed on the review step', async () => {
    const id = await liveSession();
    const mrz = `P<KENKAMAU<<WANJIRU${'<'.repeat(25)}\nAK12345674KEN9005316F3001012${'<'.repeat(14)}00`;
    const uploaded = await upload(id, [
      { field: 'idType', data: 'passport' },
      { field: 'idNumber', data: 'AK1234567' },
      ...statedPersonParts,
      { field: 'middleName', data: 'Njeri' },
      { field: 'documentExpiry', data: '2030-01-01' },
      { field: 'nationality', data: 'KEN' },
      { field: 'mrz', data: mrz },
      imagePart('id_document_front', portrait),
      imagePart('selfie', portrait),
    ]);
    expect(landing(uploaded.headers.location)).toBe('?step=review');
    const review = (await page(id, '?step=review')).body;
    expect(review).toContain('<dt>Middle names</dt><dd>Njeri</dd>');
    expect(review).toContain('<dt>Date of birth</dt><dd>31 May 1990</dd>');
    expect(review).toContain('<dt>Nationality</dt><dd>Kenya</dd>');
    const details = /name="details" value="([^"]+)"/.exec(review)?.[1] ?? '';
    const submitted = await post(id, { token: testFormToken(id), action: 'confirm', details });
    expect(landing(submitted.headers.location)).toBe('?notice=submitted');
    const [row] = await database.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, id));
    const opened = vault.open(`kyc/${id}/details`, Buffer.from(row?.details ?? Buffer.alloc(0)));
    expect(JSON.parse(opened.bytes.toString())).toEqual({
      type: 'kyc',
      idType: 'passport',
      idNumber: 'AK1234567',
      firstName: 'Wanjiru',
      middleName: 'Njeri',
      lastName: 'Kamau',
      dateOfBirth: '1990-05-31',
      documentExpiry: '2030-01-01',
      nationality: 'KEN',
      mrz,
    });
  });

  it('shows a refused file at its field, stores nothing of it, and keeps what was accepted', async () => {
    const id = await liveSession();
    const uploaded = await upload(id, [
      { field: 'idType', data: 'passport' },
      { field: 'idNumber', data: 'x' },
      ...statedPersonParts,
      imagePart('id_document_front', Buffer.from('%PDF-1.7 not an image at all'), 'application/pdf'),
      imagePart('selfie', await pngImage(300, 400)),
    ]);
    expect(uploaded.statusCode).toBe(303);
    expect(await documentsOf(id)).toEqual([]);
    expect(await filesOf(id)).toEqual([]);
    const html = (await page(id, landing(uploaded.headers.location))).body;
    expect(html).toContain('<div class="error-summary" role="alert"');
    expect(html).toContain(
      '<li><a href="#field-id_document_front">This type of file is not accepted: choose a JPEG, PNG or WebP photo.</a></li>',
    );
    expect(html).toContain(
      '<p class="field-error" id="error-selfie">The photo is too small: it must be at least 600 pixels on its shorter side.</p>',
    );
    expect(html).toContain('<a href="#field-idNumber">This is not a valid number for this type of ID document.</a>');
    expect(html).toMatch(/id="field-selfie"[^>]*aria-describedby="error-selfie" aria-invalid="true"/);
    expect(html).toContain('<title>Error: Waiting for documents: verify your identity</title>');
    // A passport has no back: it is not asked for.
    expect(html).not.toContain('href="#field-id_document_back"');

    // Without a review draft the person cannot submit past the missing files.
    const again = await upload(id, [
      { field: 'idType', data: 'passport' },
      { field: 'idNumber', data: 'AK1234567' },
      ...statedPersonParts,
      imagePart('id_document_front', portrait),
    ]);
    const next = (await page(id, landing(again.headers.location))).body;
    expect(next).toContain('<a href="#field-selfie">Choose a file.</a>');
    expect((await documentsOf(id)).map((document) => document.kind)).toEqual(['id_document_front']);
  });

  it('says the refusals in Kiswahili with lang=sw, and keeps the language through the post', async () => {
    const id = await liveSession();
    const form = (await page(id, '?lang=sw')).body;
    expect(form).toContain('<h2 id="capture-heading">Tuma hati zako</h2>');
    expect(form).toContain('Pakia na uhakiki');
    const uploaded = await upload(id, [
      { field: 'lang', data: 'sw' },
      { field: 'idType', data: 'national_id' },
      { field: 'idNumber', data: '27183945' },
      ...statedPersonParts,
      imagePart('selfie', Buffer.from('GIF89a not accepted'), 'image/gif'),
    ]);
    expect(uploaded.headers.location).toMatch(/&lang=sw$/);
    const html = (await page(id, landing(uploaded.headers.location))).body;
    expect(html).toContain('Kuna tatizo');
    expect(html).toContain('Aina hii ya faili haikubaliwi: chagua picha ya JPEG, PNG au WebP.');
    expect(html).toContain('<a href="#field-id_document_front">Chagua faili.</a>');
  });

  it('refuses a post without the form token, a part the form does not have, and a session already submitted', async () => {
    const id = await liveSession();
    const forged = await upload(id, [imagePart('selfie', portrait)], 'not-the-token');
    expect(landing(forged.headers.location)).toBe('?notice=form_expired');
    const extra = await upload(id, [imagePart('avatar', portrait)]);
    expect(extra.statusCode).toBe(400);
    expect(await filesOf(id)).toEqual([]);
    expect(await documentsOf(id)).toEqual([]);
  });

  it('takes a kyb session with PDFs and several director IDs, and submits it', async () => {
    const id = await liveSession({ type: 'kyb', externalEndUserId: 'company-1' });
    const form = (await page(id)).body;
    expect(form).toContain('<legend>Your business</legend>');
    expect(form).toMatch(
      /<input type="file" id="field-director_id" name="director_id" accept="image\/\*,application\/pdf" multiple/,
    );
    expect(form).not.toContain('capture="environment"');
    const pdf = await pdfDocument(2);
    const file = (field: string, data: Buffer = pdf): FormPart => ({
      field,
      filename: `${field}.pdf`,
      contentType: 'application/pdf',
      data,
    });
    const uploaded = await upload(id, [
      { field: 'registrationNumber', data: 'pvt-ab12cd3' },
      { field: 'companyName', data: 'Acme Kenya Limited' },
      file('certificate_of_incorporation'),
      file('cr12'),
      file('kra_pin_certificate'),
      file('director_id'),
      imagePart('director_id', portrait),
    ]);
    expect(landing(uploaded.headers.location)).toMatch(/^\?step=review$/);
    const review = (await page(id, landing(uploaded.headers.location))).body;
    expect(review).toContain('<dd>PVT-AB12CD3</dd>');
    expect(review).toContain('<dd>Acme Kenya Limited</dd>');
    expect(review.match(/<li>Director&#39;s ID: /g)).toHaveLength(2);
    const details = /name="details" value="([^"]+)"/.exec(review)?.[1] ?? '';
    const submitted = await post(id, { token: testFormToken(id), action: 'confirm', details });
    expect(submitted.headers.location).toBe(`${id}?notice=submitted`);
    expect(await statusOf(database.db, id)).toBe('processing');
  });

  it('asks again when the consent text changed: no upload or submit until the current notice is agreed to', async () => {
    const id = await liveSession();
    const uploaded = await upload(id, [
      { field: 'idType', data: 'passport' },
      { field: 'idNumber', data: 'AK1234567' },
      ...statedPersonParts,
      imagePart('id_document_front', portrait),
      imagePart('selfie', portrait),
    ]);
    expect(landing(uploaded.headers.location)).toBe('?step=review');
    const review = (await page(id, '?step=review')).body;
    const details = /name="details" value="([^"]+)"/.exec(review)?.[1] ?? '';
    expect(details).not.toBe('');
    const stored = await filesOf(id);
    expect(stored).toHaveLength(2);

    // The person's agreement was to an earlier text of the notice.
    const OLDER_VERSION = 'consent-2025-01';
    expect(OLDER_VERSION).not.toBe(CONSENT_TEXT_VERSION);
    await database.db
      .update(verificationConsents)
      .set({ textVersion: OLDER_VERSION })
      .where(eq(verificationConsents.sessionId, id));

    for (const query of ['', '?step=review', '?step=change']) {
      const html = (await page(id, query)).body;
      expect(html, query).toContain('<h1>Before you start: your personal data</h1>');
      expect(html, query).toContain(
        '<p class="changed" id="consent-changed">This notice has changed since you agreed to it. Please read it again: nothing more is collected until you agree.</p>',
      );
      expect(html, query).not.toContain('enctype="multipart/form-data"');
      expect(html, query).not.toContain('value="confirm"');
    }

    const submitted = await post(id, { token: testFormToken(id), action: 'confirm', details });
    expect(submitted.headers.location).toBe(`${id}?notice=consent_needed`);
    const another = await upload(id, [imagePart('selfie', portrait)]);
    expect(landing(another.headers.location)).toBe('?notice=consent_needed');
    expect(await statusOf(database.db, id)).toBe('pending');
    expect(await filesOf(id)).toEqual(stored);
    expect(await documentsOf(id)).toHaveLength(2);

    // (Declining the new text instead ends the session, saying nothing more was collected: routes.test.ts.)

    // Agreeing to the current text records it beside the earlier agreement, and the review is back.
    const agreed = await post(id, { token: testFormToken(id), action: 'agree' });
    expect(agreed.headers.location).toBe(`${id}?notice=consent_recorded`);
    const consents = await database.db
      .select({ textVersion: verificationConsents.textVersion })
      .from(verificationConsents)
      .where(eq(verificationConsents.sessionId, id));
    expect(consents.map((consent) => consent.textVersion).sort()).toEqual([OLDER_VERSION, CONSENT_TEXT_VERSION].sort());
    const reviewAgain = (await page(id, '?step=review')).body;
    expect(reviewAgain).toContain('<h1>Check before you submit</h1>');
    expect(reviewAgain).not.toContain('consent-changed');
    const confirmed = await post(id, { token: testFormToken(id), action: 'confirm', details });
    expect(confirmed.headers.location).toBe(`${id}?notice=submitted`);
    expect(await statusOf(database.db, id)).toBe('processing');
  });

  it('sends the person back to the returnUrl from a final page', async () => {
    const id = await liveSession({ returnUrl: 'https://wallet.example/done?from=verify' });
    const canceled = await app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${id}/cancel`,
      headers: { 'x-service-api-key': acme.liveKey },
    });
    expect(canceled.statusCode).toBe(200);
    const html = (await page(id)).body;
    expect(html).toContain(
      '<a class="button primary" href="https://wallet.example/done?from=verify">Continue to Acme Wallet</a>',
    );
    expect(html).not.toContain('http-equiv="refresh"');
  });
});
