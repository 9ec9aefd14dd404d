import { verificationConsents, verificationDocuments, verificationSessions } from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import { captureLogs } from '@platform/http/testing';
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
  jpegImage,
  multipart,
  PNG_SIGNATURE,
  pdfDocument,
  pngImage,
  storedFiles,
  temporaryVault,
  uploadDocument,
} from '../../../../test/document-fixtures.js';
import {
  createdSessionId,
  fundWallet,
  holdMovements,
  statusOf,
  transitionsOf,
  truncateVerificationData,
} from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';

// Capture by API: documents uploaded, listed, submitted and erased through the API-key routes, on a vault over a
// temporary folder the tests look into.

const ID_NUMBER = '27183945';
const logs = captureLogs();
const database = useTestDatabase();
const clock = testClock();
let app: BackendApp;
let vault: DocumentVault;
let directory: string;
let removeFolder: () => Promise<void>;
let acme: TestOrganization;
let other: TestOrganization;
let portrait: Buffer;

beforeAll(async () => {
  ({ vault, directory, remove: removeFolder } = await temporaryVault());
  app = await buildTestApp(database.handle, { now: clock.now, vault, logger: logs.logger });
  portrait = await pngImage(600, 800, 'WANJIRU KAMAU');
});
afterAll(async () => {
  await app?.close();
  await removeFolder?.();
});
beforeEach(async () => {
  await truncateVerificationData(database.db);
  [acme, other] = await replaceOrganizations(database.db, 'Acme', 'Other');
  await fundWallet(database.db, acme.id, 'live', 10_000);
  await fundWallet(database.db, acme.id, 'test', 10_000);
});

const kycSession = () => createdSessionId(app, acme.liveKey, { type: 'kyc', externalEndUserId: 'person-1' });
const kybSession = () => createdSessionId(app, acme.liveKey, { type: 'kyb', externalEndUserId: 'company-1' });
const key = (apiKey: string) => ({ 'x-service-api-key': apiKey });

const submit = (sessionId: string, payload: object, apiKey = acme.liveKey) =>
  app.inject({ method: 'POST', url: `/v1/verify/sessions/${sessionId}/submit`, headers: key(apiKey), payload });
const listDocuments = (sessionId: string, apiKey = acme.liveKey) =>
  app.inject({ method: 'GET', url: `/v1/verify/sessions/${sessionId}/documents`, headers: key(apiKey) });
const erase = (sessionId: string, apiKey = acme.liveKey) =>
  app.inject({ method: 'DELETE', url: `/v1/verify/sessions/${sessionId}/personal-data`, headers: key(apiKey) });
const cancel = (sessionId: string) =>
  app.inject({ method: 'POST', url: `/v1/verify/sessions/${sessionId}/cancel`, headers: key(acme.liveKey) });

async function uploadKycSet(sessionId: string) {
  for (const kind of ['id_document_front', 'id_document_back', 'selfie']) {
    expect((await uploadDocument(app, acme.liveKey, sessionId, kind, portrait)).statusCode).toBe(201);
  }
}

describe('POST /v1/verify/sessions/:id/documents', () => {
  it('stores an image and answers its metadata; the stored file shows neither the image nor its details', async () => {
    const sessionId = await kycSession();
    const response = await uploadDocument(app, acme.liveKey, sessionId, 'id_document_front', portrait);
    expect(response.statusCode).toBe(201);
    const { data } = response.json();
    expect(data).toEqual({
      id: expect.any(String),
      kind: 'id_document_front',
      contentType: 'image/png',
      size: expect.any(Number),
      createdAt: clock.now().toISOString(),
    });

    const [row] = await database.db.select().from(verificationDocuments).where(eq(verificationDocuments.id, data.id));
    expect(row).toMatchObject({
      sessionId,
      storageKey: `kyc/${sessionId}/${data.id}`,
      encryptionKeyId: 'test',
      sizeBytes: data.size,
    });
    expect(row?.sha256).toMatch(/^[0-9a-f]{64}$/);

    const files = (await storedFiles(directory)).filter((file) => file.path.includes(sessionId));
    expect(files.map((file) => file.path)).toEqual([`kyc/${sessionId}/${data.id}`]);
    const raw = files[0]?.bytes ?? Buffer.alloc(0);
    expect(raw.includes(PNG_SIGNATURE)).toBe(false);
    expect(raw.includes(Buffer.from('IHDR'))).toBe(false);
    expect(raw.includes(Buffer.from('image/png'))).toBe(false);
    // And the vault, with the master key, reads the image back.
    expect((await vault.read(`kyc/${sessionId}/${data.id}`))?.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  });

  it('takes PDFs and images for kyb documents, and only images for kyc ones (415)', async () => {
    const kyb = await kybSession();
    const pdf = await pdfDocument(2);
    const certificate = await uploadDocument(app, acme.liveKey, kyb, 'cr12', pdf, 'application/pdf');
    expect(certificate.statusCode).toBe(201);
    expect(certificate.json().data.contentType).toBe('application/pdf');
    expect((await uploadDocument(app, acme.liveKey, kyb, 'director_id', await jpegImage())).statusCode).toBe(201);

    const kyc = await kycSession();
    const refused = await uploadDocument(app, acme.liveKey, kyc, 'id_document_front', pdf, 'image/png');
    expect(refused.statusCode).toBe(415);
    expect(refused.json().code).toBe('unsupported_media_type');
    const text = await uploadDocument(app, acme.liveKey, kyc, 'selfie', Buffer.from('<html>me</html>'), 'image/png');
    expect(text.statusCode).toBe(415);
    expect((await storedFiles(directory)).filter((file) => file.path.includes(kyc))).toEqual([]);
  });

  it('refuses an undersized image (400 naming file) and an oversized file (413), storing nothing', async () => {
    const sessionId = await kycSession();
    const small = await uploadDocument(app, acme.liveKey, sessionId, 'selfie', await pngImage(599, 800));
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/file' }] });

    const huge = Buffer.concat([portrait, Buffer.alloc(10 * 1024 * 1024)]);
    const large = await uploadDocument(app, acme.liveKey, sessionId, 'selfie', huge);
    expect(large.statusCode).toBe(413);
    expect(large.json().code).toBe('payload_too_large');
    expect((await storedFiles(directory)).filter((file) => file.path.includes(sessionId))).toEqual([]);
    expect(await database.db.$count(verificationDocuments)).toBe(0);
  });

  it.each([
    ['an unknown kind', 'passport_scan'],
    ['a kind of the other type', 'cr12'],
  ])('refuses %s with 400 naming kind', async (_label, kind) => {
    const sessionId = await kycSession();
    const response = await uploadDocument(app, acme.liveKey, sessionId, kind, portrait);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/kind' }] });
  });

  it('refuses a missing kind, a second file and an unexpected field', async () => {
    const sessionId = await kycSession();
    const send = (parts: Parameters<typeof multipart>[0]) => {
      const { payload, headers } = multipart(parts);
      return app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${sessionId}/documents`,
        headers: { ...key(acme.liveKey), ...headers },
        payload,
      });
    };
    const file = { field: 'file', filename: 'a.png', contentType: 'image/png', data: portrait };
    expect((await send([file])).json()).toMatchObject({ code: 'validation_error', details: [{ path: '/kind' }] });
    expect((await send([{ field: 'kind', data: 'selfie' }, file, file])).statusCode).toBe(413);
    const extra = await send([{ field: 'kind', data: 'selfie' }, { field: 'note', data: 'x' }, file]);
    expect(extra.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/note' }] });
    const json = await app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${sessionId}/documents`,
      headers: key(acme.liveKey),
      payload: { kind: 'selfie' },
    });
    expect(json.statusCode).toBe(415);
  });

  it("answers 404 for another organization's session and another environment's", async () => {
    const sessionId = await kycSession();
    expect((await uploadDocument(app, other.liveKey, sessionId, 'selfie', portrait)).statusCode).toBe(404);
    expect((await uploadDocument(app, acme.testKey, sessionId, 'selfie', portrait)).statusCode).toBe(404);
    expect((await listDocuments(sessionId, other.liveKey)).statusCode).toBe(404);
    expect((await listDocuments(sessionId, acme.testKey)).statusCode).toBe(404);
    expect((await submit(sessionId, { idType: 'passport', idNumber: 'AK1234567' }, acme.testKey)).statusCode).toBe(404);
    expect((await erase(sessionId, other.liveKey)).statusCode).toBe(404);
  });

  it('refuses documents and submissions for a final session (409)', async () => {
    const sessionId = await kycSession();
    expect((await cancel(sessionId)).statusCode).toBe(200);
    const upload = await uploadDocument(app, acme.liveKey, sessionId, 'selfie', portrait);
    expect(upload.statusCode).toBe(409);
    expect(upload.json().code).toBe('conflict');
    expect((await submit(sessionId, { idType: 'passport', idNumber: 'AK1234567' })).statusCode).toBe(409);
  });

  it('replaces an earlier document of the kind, but keeps every director ID', async () => {
    const kyc = await kycSession();
    const first = (await uploadDocument(app, acme.liveKey, kyc, 'selfie', portrait)).json().data.id;
    const second = (await uploadDocument(app, acme.liveKey, kyc, 'selfie', portrait)).json().data.id;
    const listed = (await listDocuments(kyc)).json().data.documents;
    expect(listed.map((document: { id: string }) => document.id)).toEqual([second]);
    const [old] = await database.db.select().from(verificationDocuments).where(eq(verificationDocuments.id, first));
    expect(old?.supersededAt).toEqual(clock.now());

    const kyb = await kybSession();
    for (let index = 0; index < 2; index += 1) {
      expect((await uploadDocument(app, acme.liveKey, kyb, 'director_id', portrait)).statusCode).toBe(201);
    }
    const directors = (await listDocuments(kyb)).json().data.documents;
    expect(directors.map((document: { kind: string }) => document.kind)).toEqual(['director_id', 'director_id']);
    expect(Object.keys(directors[0]).sort()).toEqual(['contentType', 'createdAt', 'id', 'kind', 'size']);
  });
});

describe('POST /v1/verify/sessions/:id/submit', () => {
  it('lists every missing document and detail in one 400', async () => {
    const kyc = await kycSession();
    await uploadDocument(app, acme.liveKey, kyc, 'id_document_front', portrait);
    const missing = await submit(kyc, { idType: 'national_id' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('validation_error');
    expect(missing.json().details.map((detail: { path: string }) => detail.path)).toEqual([
      '/idNumber',
      '/documents/id_document_back',
      '/documents/selfie',
    ]);

    const kyb = await kybSession();
    await uploadDocument(app, acme.liveKey, kyb, 'cr12', await pdfDocument(), 'application/pdf');
    const kybMissing = await submit(kyb, { registrationNumber: 'not a number', idType: 'passport' });
    expect(kybMissing.json().details.map((detail: { path: string }) => detail.path)).toEqual([
      '/idType',
      '/registrationNumber',
      '/documents/certificate_of_incorporation',
      '/documents/kra_pin_certificate',
      '/documents/director_id',
    ]);
    expect(await statusOf(database.db, kyb)).toBe('pending');
  });

  it.each([
    ['national_id', '1234', false],
    ['national_id', 'AB123456', false],
    ['national_id', ' 27183945 ', true],
    ['passport', 'ak1234567', true],
    ['passport', 'ABCDEFGH', false],
    ['alien_id', '1234567', true],
  ])('checks a %s number %j', async (idType, idNumber, valid) => {
    const sessionId = await kycSession();
    await uploadKycSet(sessionId);
    const response = await submit(sessionId, { idType, idNumber });
    expect(response.statusCode).toBe(valid ? 200 : 400);
    if (!valid) expect(response.json().details).toEqual([{ path: '/idNumber', message: expect.any(String) }]);
  });

  it('needs no back of a passport', async () => {
    const sessionId = await kycSession();
    await uploadDocument(app, acme.liveKey, sessionId, 'id_document_front', portrait);
    await uploadDocument(app, acme.liveKey, sessionId, 'selfie', portrait);
    expect((await submit(sessionId, { idType: 'passport', idNumber: 'AK1234567' })).statusCode).toBe(200);
  });

  it('runs a KYC session through the API alone to processing, with the details sealed', async () => {
    const sessionId = await kycSession();
    await uploadKycSet(sessionId);
    const submitted = await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().data).toMatchObject({
      sessionId,
      status: 'processing',
      submittedAt: clock.now().toISOString(),
      personalDataErasedAt: null,
    });
    // The clock stands still, so the transitions' order is not their time's: look for the move itself.
    expect(await transitionsOf(database.db, sessionId)).toContainEqual({
      from: 'pending',
      to: 'processing',
      actor: `api_key:${acme.liveKeyId}`,
    });

    const [row] = await database.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    const sealed = Buffer.from(row?.details ?? Buffer.alloc(0));
    expect(sealed.length).toBeGreaterThan(0);
    expect(sealed.includes(Buffer.from(ID_NUMBER))).toBe(false);
    expect(JSON.parse(vault.open(`kyc/${sessionId}/details`, sealed).bytes.toString())).toEqual({
      type: 'kyc',
      idType: 'national_id',
      idNumber: ID_NUMBER,
    });

    // A processing session takes no more documents or submissions.
    expect((await uploadDocument(app, acme.liveKey, sessionId, 'selfie', portrait)).statusCode).toBe(409);
    expect((await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER })).statusCode).toBe(409);
    expect(logs.text()).not.toContain(ID_NUMBER);
  });

  it('runs a KYB session with PDFs to processing', async () => {
    const sessionId = await kybSession();
    const pdf = await pdfDocument(3);
    for (const kind of ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate']) {
      expect((await uploadDocument(app, acme.liveKey, sessionId, kind, pdf, 'application/pdf')).statusCode).toBe(201);
    }
    await uploadDocument(app, acme.liveKey, sessionId, 'director_id', portrait);
    const submitted = await submit(sessionId, { registrationNumber: 'pvt-ab12cd3', companyName: ' Acme Ltd ' });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().data.status).toBe('processing');
  });
});

describe('DELETE /v1/verify/sessions/:id/personal-data', () => {
  it('erases the files and details of a final session, keeps the session and its money, and can be repeated', async () => {
    const sessionId = await kycSession();
    await uploadKycSet(sessionId);
    expect((await cancel(sessionId)).statusCode).toBe(200);
    expect((await storedFiles(directory)).filter((file) => file.path.includes(sessionId))).toHaveLength(3);

    const erased = await erase(sessionId);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data).toMatchObject({
      sessionId,
      status: 'canceled',
      personalDataErasedAt: clock.now().toISOString(),
    });
    expect((await storedFiles(directory)).filter((file) => file.path.includes(sessionId))).toEqual([]);
    const rows = await database.db
      .select({ erasedAt: verificationDocuments.erasedAt })
      .from(verificationDocuments)
      .where(eq(verificationDocuments.sessionId, sessionId));
    expect(rows).toEqual([{ erasedAt: clock.now() }, { erasedAt: clock.now() }, { erasedAt: clock.now() }]);
    expect((await listDocuments(sessionId)).json().data.documents).toEqual([]);
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold', 'release']);

    const firstErasure = clock.now().toISOString();
    clock.advance(60_000);
    const again = await erase(sessionId);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.personalDataErasedAt).toBe(firstErasure);
  });

  it('erases the sealed details of a decided session', async () => {
    const sessionId = await kycSession();
    await uploadKycSet(sessionId);
    await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER });
    await database.db
      .update(verificationSessions)
      .set({ status: 'rejected' })
      .where(eq(verificationSessions.id, sessionId));
    expect((await erase(sessionId)).statusCode).toBe(200);
    const [row] = await database.db
      .select({ details: verificationSessions.submittedDetails, submittedAt: verificationSessions.submittedAt })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    expect(row).toEqual({ details: null, submittedAt: clock.now() });
    expect((await storedFiles(directory)).filter((file) => file.path.includes(sessionId))).toEqual([]);
  });

  it("removes the IP address and user agent from the session's consents, keeping when, which text and which language", async () => {
    const sessionId = await kycSession();
    const untouched = await kycSession();
    const agreedAt = clock.now();
    const consent = (id: string, textVersion: string, locale: 'en' | 'sw') => ({
      sessionId: id,
      textVersion,
      locale,
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (Linux; Android 14) Mobile',
      createdAt: agreedAt,
    });
    // Agreed to an earlier text of the notice, then to the current one.
    await database.db
      .insert(verificationConsents)
      .values([
        consent(sessionId, 'consent-2025-01', 'sw'),
        consent(sessionId, 'consent-2026-11', 'en'),
        consent(untouched, 'consent-2026-11', 'en'),
      ]);
    await uploadKycSet(sessionId);
    expect((await cancel(sessionId)).statusCode).toBe(200);
    expect((await cancel(untouched)).statusCode).toBe(200);
    clock.advance(60_000);

    expect((await erase(sessionId)).statusCode).toBe(200);
    const consentsOf = (id: string) =>
      database.db
        .select({
          textVersion: verificationConsents.textVersion,
          locale: verificationConsents.locale,
          ip: verificationConsents.ip,
          userAgent: verificationConsents.userAgent,
          createdAt: verificationConsents.createdAt,
        })
        .from(verificationConsents)
        .where(eq(verificationConsents.sessionId, id))
        .orderBy(verificationConsents.textVersion);
    expect(await consentsOf(sessionId)).toEqual([
      { textVersion: 'consent-2025-01', locale: 'sw', ip: null, userAgent: null, createdAt: agreedAt },
      { textVersion: 'consent-2026-11', locale: 'en', ip: null, userAgent: null, createdAt: agreedAt },
    ]);
    // Another session's consent keeps its evidence until that session is erased.
    const { sessionId: _, ...kept } = consent(untouched, 'consent-2026-11', 'en');
    expect(await consentsOf(untouched)).toEqual([kept]);
  });

  it('refuses an open session: pending and processing (409)', async () => {
    const sessionId = await kycSession();
    const pending = await erase(sessionId);
    expect(pending.statusCode).toBe(409);
    expect(pending.json().error).toContain('cancel it first');
    await uploadKycSet(sessionId);
    await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER });
    const processing = await erase(sessionId);
    expect(processing.statusCode).toBe(409);
    expect((await storedFiles(directory)).filter((file) => file.path.includes(sessionId))).toHaveLength(3);
  });
});
