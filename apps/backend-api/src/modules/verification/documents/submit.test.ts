import { verificationSessions } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ID_NUMBER, useCaptureRoutes } from '../../../../test/capture-route-fixtures.js';
import { pdfDocument, uploadDocument } from '../../../../test/document-fixtures.js';
import { statusOf, transitionsOf } from '../../../../test/verification-fixtures.js';

const setup = useCaptureRoutes();
const { database, logs, clock, kycSession, kybSession, submit, uploadKycSet } = setup;

describe('POST /v1/verify/sessions/:id/submit', () => {
  it('lists every missing document and detail in one 400', async () => {
    const kyc = await kycSession();
    await uploadDocument(setup.app, setup.acme.liveKey, kyc, 'id_document_front', setup.portrait);
    const missing = await submit(kyc, { idType: 'national_id' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().code).toBe('validation_error');
    expect(missing.json().details.map((detail: { path: string }) => detail.path)).toEqual([
      '/idNumber',
      '/documents/id_document_back',
      '/documents/selfie',
    ]);

    const kyb = await kybSession();
    await uploadDocument(setup.app, setup.acme.liveKey, kyb, 'cr12', await pdfDocument(), 'application/pdf');
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
    await uploadDocument(setup.app, setup.acme.liveKey, sessionId, 'id_document_front', setup.portrait);
    await uploadDocument(setup.app, setup.acme.liveKey, sessionId, 'selfie', setup.portrait);
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
      actor: `api_key:${setup.acme.liveKeyId}`,
    });

    const [row] = await database.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    const sealed = Buffer.from(row?.details ?? Buffer.alloc(0));
    expect(sealed.length).toBeGreaterThan(0);
    expect(sealed.includes(Buffer.from(ID_NUMBER))).toBe(false);
    expect(JSON.parse(setup.vault.open(`kyc/${sessionId}/details`, sealed).bytes.toString())).toEqual({
      type: 'kyc',
      idType: 'national_id',
      idNumber: ID_NUMBER,
    });

    // A processing session takes no more documents or submissions.
    expect((await uploadDocument(setup.app, setup.acme.liveKey, sessionId, 'selfie', setup.portrait)).statusCode).toBe(
      409,
    );
    expect((await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER })).statusCode).toBe(409);
    expect(logs.text()).not.toContain(ID_NUMBER);
  });

  it('seals the stated names, dates and nationality with the ID number; a bad one is a 400 that changes nothing', async () => {
    const sessionId = await kycSession();
    await uploadKycSet(sessionId);
    const bad = await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER, dateOfBirth: '1994-02-30' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([{ path: '/dateOfBirth', message: 'must be a date written YYYY-MM-DD' }]);
    expect(await statusOf(database.db, sessionId)).toBe('pending');

    const stated = { firstName: 'Amani', lastName: 'Otieno', dateOfBirth: '1994-05-17', nationality: 'KEN' };
    const submitted = await submit(sessionId, { idType: 'national_id', idNumber: ID_NUMBER, ...stated });
    expect(submitted.statusCode).toBe(200);
    const [row] = await database.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    const sealed = Buffer.from(row?.details ?? Buffer.alloc(0));
    expect(sealed.includes(Buffer.from('Otieno'))).toBe(false);
    expect(JSON.parse(setup.vault.open(`kyc/${sessionId}/details`, sealed).bytes.toString())).toEqual({
      type: 'kyc',
      idType: 'national_id',
      idNumber: ID_NUMBER,
      ...stated,
    });
    expect(logs.text()).not.toContain('Otieno');
    expect(logs.text()).not.toContain('1994-05-17');
  });

  it('runs a KYB session with PDFs to processing', async () => {
    const sessionId = await kybSession();
    const pdf = await pdfDocument(3);
    for (const kind of ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate']) {
      expect(
        (await uploadDocument(setup.app, setup.acme.liveKey, sessionId, kind, pdf, 'application/pdf')).statusCode,
      ).toBe(201);
    }
    await uploadDocument(setup.app, setup.acme.liveKey, sessionId, 'director_id', setup.portrait);
    const submitted = await submit(sessionId, { registrationNumber: 'pvt-ab12cd3', companyName: ' Acme Ltd ' });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().data.status).toBe('processing');
  });
});
