import { verificationDocuments } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { useCaptureRoutes } from '../../../../test/capture-route-fixtures.js';
import {
  jpegImage,
  multipart,
  PNG_SIGNATURE,
  pdfDocument,
  pngImage,
  storedFiles,
  uploadDocument,
} from '../../../../test/document-fixtures.js';

const setup = useCaptureRoutes();
const { database, clock, kycSession, kybSession, key, submit, listDocuments, erase, cancel } = setup;

describe('POST /v1/verify/sessions/:id/documents', () => {
  it('stores an image and answers its metadata; the stored file shows neither the image nor its details', async () => {
    const sessionId = await kycSession();
    const response = await uploadDocument(
      setup.app,
      setup.acme.liveKey,
      sessionId,
      'id_document_front',
      setup.portrait,
    );
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

    const files = (await storedFiles(setup.directory)).filter((file) => file.path.includes(sessionId));
    expect(files.map((file) => file.path)).toEqual([`kyc/${sessionId}/${data.id}`]);
    const raw = files[0]?.bytes ?? Buffer.alloc(0);
    expect(raw.includes(PNG_SIGNATURE)).toBe(false);
    expect(raw.includes(Buffer.from('IHDR'))).toBe(false);
    expect(raw.includes(Buffer.from('image/png'))).toBe(false);
    // And the setup.vault, with the master key, reads the image back.
    expect((await setup.vault.read(`kyc/${sessionId}/${data.id}`))?.bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(
      true,
    );
  });

  it('takes PDFs and images for kyb documents, and only images for kyc ones (415)', async () => {
    const kyb = await kybSession();
    const pdf = await pdfDocument(2);
    const certificate = await uploadDocument(setup.app, setup.acme.liveKey, kyb, 'cr12', pdf, 'application/pdf');
    expect(certificate.statusCode).toBe(201);
    expect(certificate.json().data.contentType).toBe('application/pdf');
    expect(
      (await uploadDocument(setup.app, setup.acme.liveKey, kyb, 'director_id', await jpegImage())).statusCode,
    ).toBe(201);

    const kyc = await kycSession();
    const refused = await uploadDocument(setup.app, setup.acme.liveKey, kyc, 'id_document_front', pdf, 'image/png');
    expect(refused.statusCode).toBe(415);
    expect(refused.json().code).toBe('unsupported_media_type');
    const text = await uploadDocument(
      setup.app,
      setup.acme.liveKey,
      kyc,
      'selfie',
      Buffer.from('<html>me</html>'),
      'image/png',
    );
    expect(text.statusCode).toBe(415);
    expect((await storedFiles(setup.directory)).filter((file) => file.path.includes(kyc))).toEqual([]);
  });

  it('refuses an undersized image (400 naming file) and an oversized file (413), storing nothing', async () => {
    const sessionId = await kycSession();
    const small = await uploadDocument(setup.app, setup.acme.liveKey, sessionId, 'selfie', await pngImage(599, 800));
    expect(small.statusCode).toBe(400);
    expect(small.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/file' }] });

    const huge = Buffer.concat([setup.portrait, Buffer.alloc(10 * 1024 * 1024)]);
    const large = await uploadDocument(setup.app, setup.acme.liveKey, sessionId, 'selfie', huge);
    expect(large.statusCode).toBe(413);
    expect(large.json().code).toBe('payload_too_large');
    expect((await storedFiles(setup.directory)).filter((file) => file.path.includes(sessionId))).toEqual([]);
    expect(await database.db.$count(verificationDocuments)).toBe(0);
  });

  it.each([
    ['an unknown kind', 'passport_scan'],
    ['a kind of the other type', 'cr12'],
  ])('refuses %s with 400 naming kind', async (_label, kind) => {
    const sessionId = await kycSession();
    const response = await uploadDocument(setup.app, setup.acme.liveKey, sessionId, kind, setup.portrait);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/kind' }] });
  });

  it('refuses a missing kind, a second file and an unexpected field', async () => {
    const sessionId = await kycSession();
    const send = (parts: Parameters<typeof multipart>[0]) => {
      const { payload, headers } = multipart(parts);
      return setup.app.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${sessionId}/documents`,
        headers: { ...key(setup.acme.liveKey), ...headers },
        payload,
      });
    };
    const file = { field: 'file', filename: 'a.png', contentType: 'image/png', data: setup.portrait };
    expect((await send([file])).json()).toMatchObject({ code: 'validation_error', details: [{ path: '/kind' }] });
    expect((await send([{ field: 'kind', data: 'selfie' }, file, file])).statusCode).toBe(413);
    const extra = await send([{ field: 'kind', data: 'selfie' }, { field: 'note', data: 'x' }, file]);
    expect(extra.json()).toMatchObject({ code: 'validation_error', details: [{ path: '/note' }] });
    const json = await setup.app.inject({
      method: 'POST',
      url: `/v1/verify/sessions/${sessionId}/documents`,
      headers: key(setup.acme.liveKey),
      payload: { kind: 'selfie' },
    });
    expect(json.statusCode).toBe(415);
  });

  it("answers 404 for another organization's session and another environment's", async () => {
    const sessionId = await kycSession();
    expect((await uploadDocument(setup.app, setup.other.liveKey, sessionId, 'selfie', setup.portrait)).statusCode).toBe(
      404,
    );
    expect((await uploadDocument(setup.app, setup.acme.testKey, sessionId, 'selfie', setup.portrait)).statusCode).toBe(
      404,
    );
    expect((await listDocuments(sessionId, setup.other.liveKey)).statusCode).toBe(404);
    expect((await listDocuments(sessionId, setup.acme.testKey)).statusCode).toBe(404);
    expect(
      (await submit(sessionId, { idType: 'passport', idNumber: 'AK1234567' }, setup.acme.testKey)).statusCode,
    ).toBe(404);
    expect((await erase(sessionId, setup.other.liveKey)).statusCode).toBe(404);
  });

  it('refuses documents and submissions for a final session (409)', async () => {
    const sessionId = await kycSession();
    expect((await cancel(sessionId)).statusCode).toBe(200);
    const upload = await uploadDocument(setup.app, setup.acme.liveKey, sessionId, 'selfie', setup.portrait);
    expect(upload.statusCode).toBe(409);
    expect(upload.json().code).toBe('conflict');
    expect((await submit(sessionId, { idType: 'passport', idNumber: 'AK1234567' })).statusCode).toBe(409);
  });

  it('replaces an earlier document of the kind, but keeps every director ID', async () => {
    const kyc = await kycSession();
    const first = (await uploadDocument(setup.app, setup.acme.liveKey, kyc, 'selfie', setup.portrait)).json().data.id;
    const second = (await uploadDocument(setup.app, setup.acme.liveKey, kyc, 'selfie', setup.portrait)).json().data.id;
    const listed = (await listDocuments(kyc)).json().data.documents;
    expect(listed.map((document: { id: string }) => document.id)).toEqual([second]);
    const [old] = await database.db.select().from(verificationDocuments).where(eq(verificationDocuments.id, first));
    expect(old?.supersededAt).toEqual(clock.now());

    const kyb = await kybSession();
    for (let index = 0; index < 2; index += 1) {
      expect((await uploadDocument(setup.app, setup.acme.liveKey, kyb, 'director_id', setup.portrait)).statusCode).toBe(
        201,
      );
    }
    const directors = (await listDocuments(kyb)).json().data.documents;
    expect(directors.map((document: { kind: string }) => document.kind)).toEqual(['director_id', 'director_id']);
    expect(Object.keys(directors[0]).sort()).toEqual(['contentType', 'createdAt', 'id', 'kind', 'size']);
  });
});
