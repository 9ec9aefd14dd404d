import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { holdMovements, sessionRow } from './database.js';
import { paper, photo, storedFiles } from './documents.js';
import { backendCall, createSession, eventually, mainCall, uploadDocument, verifiedCallbacks } from './journey.js';
import { type Organization, type RunningPlatform, startPlatform } from './platform.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// Issue "live identity verification", done when: an API-only session (a customer capturing in its own app):
// documents uploaded, submitted, reviewed through /v1/reviews, decided; wrong file types, undersized images,
// oversized files, unknown kinds, another environment's or organization's session and a final session are all
// refused with the documented errors.

describe('a live KYC session captured by API and decided through /v1/reviews', () => {
  let platform: RunningPlatform;
  let duka: Organization;
  let other: Organization;

  beforeAll(async () => {
    platform = await startPlatform();
    duka = await platform.addOrganization('Duka Traders');
    other = await platform.addOrganization('Other Traders');
  });
  afterAll(async () => {
    await platform?.close();
  });

  it('takes documents, refuses what it must, and is decided by a reviewer', async () => {
    const { sessionId } = await createSession(platform, duka.liveKey, {
      type: 'kyc',
      externalEndUserId: 'customer-42',
      appName: 'Duka App',
      callbackUrl: platform.callbackUrl,
    });
    const front = await photo('FRONT', { format: 'jpeg' });

    // Refusals, each with its documented status and code; nothing is stored for any of them.
    const refusals: Array<[string, Promise<{ status: number; json: Record<string, unknown> }>, number, string]> = [
      [
        'a text file',
        uploadDocument(platform, duka.liveKey, sessionId, 'selfie', Buffer.from('plain text, not a photo')),
        415,
        'unsupported_media_type',
      ],
      [
        'a PDF for a person',
        uploadDocument(platform, duka.liveKey, sessionId, 'selfie', await paper('SELFIE')),
        415,
        'unsupported_media_type',
      ],
      [
        'an undersized image',
        uploadDocument(platform, duka.liveKey, sessionId, 'selfie', await photo('SMALL', { width: 400, height: 500 })),
        400,
        'validation_error',
      ],
      [
        'an oversized file',
        uploadDocument(
          platform,
          duka.liveKey,
          sessionId,
          'selfie',
          Buffer.concat([front, Buffer.alloc(11 * 1024 * 1024)]),
        ),
        413,
        'payload_too_large',
      ],
      [
        'an unknown kind',
        uploadDocument(platform, duka.liveKey, sessionId, 'passport_photo', front),
        400,
        'validation_error',
      ],
      [
        'a kind of the other type',
        uploadDocument(platform, duka.liveKey, sessionId, 'cr12', front),
        400,
        'validation_error',
      ],
      [
        "another environment's key",
        uploadDocument(platform, duka.testKey, sessionId, 'id_document_front', front),
        404,
        'not_found',
      ],
      [
        "another organization's key",
        uploadDocument(platform, other.liveKey, sessionId, 'id_document_front', front),
        404,
        'not_found',
      ],
    ];
    for (const [what, request, status, code] of refusals) {
      const response = await request;
      expect(response.status, what).toBe(status);
      expect(response.json, what).toMatchObject({ success: false, code });
    }
    const listed = await backendCall(platform, duka.liveKey, 'GET', `/v1/verify/sessions/${sessionId}/documents`);
    expect(listed.json.data).toEqual({ documents: [] });

    // Submitting too early lists what is missing.
    const early = await backendCall(platform, duka.liveKey, 'POST', `/v1/verify/sessions/${sessionId}/submit`, {
      idType: 'national_id',
      idNumber: '27183945',
    });
    expect(early.status).toBe(400);
    expect(JSON.stringify(early.json)).toContain('/documents/selfie');

    for (const kind of ['id_document_front', 'id_document_back', 'selfie']) {
      const uploaded = await uploadDocument(platform, duka.liveKey, sessionId, kind, await photo(kind.toUpperCase()));
      expect(uploaded.status, kind).toBe(201);
      expect(uploaded.json.data).toMatchObject({ kind, contentType: 'image/png' });
    }
    const submitted = await backendCall(platform, duka.liveKey, 'POST', `/v1/verify/sessions/${sessionId}/submit`, {
      idType: 'national_id',
      idNumber: '27183945',
    });
    expect(submitted.status, JSON.stringify(submitted.json)).toBe(200);
    expect(submitted.json.data).toMatchObject({ status: 'processing' });

    // A person who sells may not review; a reviewer may.
    const ownerId = 'user_e2e_platform_owner';
    await platform.addMember(platform.platform.id, ownerId, 'owner');
    const owner = await platform.tokenFor(ownerId);
    expect((await mainCall(platform, owner, 'GET', '/v1/reviews')).status).toBe(403);

    const reviewer = platform.reviewer.token;
    const queue = await mainCall(platform, reviewer, 'GET', '/v1/reviews');
    expect(queue.status).toBe(200);
    expect((queue.json.data as { reviews: unknown[] }).reviews).toEqual([
      expect.objectContaining({ sessionId, type: 'kyc', environment: 'live', appName: 'Duka App', claimedBy: null }),
    ]);
    const detail = await mainCall(platform, reviewer, 'GET', `/v1/reviews/${sessionId}`);
    expect(detail.status).toBe(200);
    const documents = (detail.json.data as { documents: Array<{ kind: string; url: string }> }).documents;
    expect(documents.map((document) => document.kind).sort()).toEqual([
      'id_document_back',
      'id_document_front',
      'selfie',
    ]);
    // The links name PUBLIC_URL; here main-api listens on a port of its own choosing.
    const linkOf = (url: string) => `${platform.mainUrl}${new URL(url).pathname}${new URL(url).search}`;
    const link = linkOf(documents[0]?.url ?? '');
    const content = await fetch(link);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/png');
    expect(content.headers.get('cache-control')).toBe('no-store');
    // A tampered link opens nothing. The signature's first character is changed: every bit of it counts, while its
    // last character may carry only padding bits, so changing that one could leave the signature as it was.
    const tamperedLink = link.replace(
      /signature=(.)/,
      (_match, first: string) => `signature=${first === 'A' ? 'B' : 'A'}`,
    );
    expect(tamperedLink).not.toBe(link);
    const tampered = await fetch(new URL(tamperedLink, platform.mainUrl));
    expect([403, 404]).toContain(tampered.status);

    expect((await mainCall(platform, reviewer, 'POST', `/v1/reviews/${sessionId}/claim`)).status).toBe(200);
    const noReason = await mainCall(platform, reviewer, 'POST', `/v1/reviews/${sessionId}/decision`, {
      decision: 'rejected',
    });
    expect(noReason.status).toBe(400);
    const decided = await mainCall(platform, reviewer, 'POST', `/v1/reviews/${sessionId}/decision`, {
      decision: 'verified',
    });
    expect(decided.status, JSON.stringify(decided.json)).toBe(200);
    expect((await sessionRow(platform.db, sessionId)).status).toBe('verified');
    expect(await holdMovements(platform.db, sessionId)).toEqual(['capture', 'hold']);

    // A final session takes nothing more, and is decided only once.
    const late = await uploadDocument(platform, duka.liveKey, sessionId, 'selfie', await photo('LATE'));
    expect(late.status).toBe(409);
    expect(late.json).toMatchObject({ code: 'conflict' });
    const again = await mainCall(platform, reviewer, 'POST', `/v1/reviews/${sessionId}/decision`, {
      decision: 'rejected',
      reason: 'x',
    });
    expect([404, 409]).toContain(again.status);
    expect(await holdMovements(platform.db, sessionId)).toEqual(['capture', 'hold']);

    const events = await eventually(
      () => verifiedCallbacks(platform.callbacks, duka.liveCallbackSecret, sessionId),
      (received) => received.some((event) => event.type === 'verification_session.verified'),
      'the verified callback',
    );
    expect(events.map((event) => event.type)).toEqual(
      expect.arrayContaining([
        'verification_session.created',
        'verification_session.processing',
        'verification_session.verified',
      ]),
    );
  });

  it('keeps the files unreadable without the master key, and erases them on request', async () => {
    const { sessionId } = await createSession(platform, duka.liveKey, {
      type: 'kyc',
      externalEndUserId: 'customer-43',
    });
    const marker = 'WANJIRU-KAMAU-27183945';
    const selfie = await photo(marker);
    expect((await uploadDocument(platform, duka.liveKey, sessionId, 'selfie', selfie)).status).toBe(201);
    const stored = (await storedFiles(platform.documentDir)).filter((file) => file.path.includes(sessionId));
    expect(stored).toHaveLength(1);
    for (const file of stored) {
      // Neither the picture's bytes, nor its PNG signature, nor any stretch of it is in what is stored.
      expect(file.bytes.includes(PNG_SIGNATURE)).toBe(false);
      expect(file.bytes.includes(selfie.subarray(64, 128))).toBe(false);
    }

    expect((await backendCall(platform, duka.liveKey, 'POST', `/v1/verify/sessions/${sessionId}/cancel`)).status).toBe(
      200,
    );
    const erased = await backendCall(
      platform,
      duka.liveKey,
      'DELETE',
      `/v1/verify/sessions/${sessionId}/personal-data`,
    );
    expect(erased.status, JSON.stringify(erased.json)).toBe(200);
    expect((await storedFiles(platform.documentDir)).filter((file) => file.path.includes(sessionId))).toEqual([]);
    expect((await sessionRow(platform.db, sessionId)).personalDataErasedAt).toEqual(expect.any(Date));
  });
});
