import { type DocumentKind, unitOfWork } from '@platform/db';
import { verificationDocuments, verificationSessions, webhookEvents } from '@platform/db/schema';
import type { DocumentVault } from '@platform/document-vault';
import { moveSession } from '@platform/verification-lifecycle';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import {
  buildTestApp,
  replaceOrganizations,
  type TestOrganization,
  testClock,
  useTestDatabase,
} from '../../../../test/app-fixtures.js';
import {
  pdfDocument,
  pngImage,
  storedFiles,
  temporaryVault,
  uploadDocument,
} from '../../../../test/document-fixtures.js';
import {
  createdSessionId,
  fundWallet,
  statusOf,
  truncateVerificationData,
} from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';

// A requires_input decision that names the documents to send again (docs/decisions.md#resubmission), through the
// API-key routes: only those kinds are taken, the first of each replaces the earlier ones (director IDs too), the
// submit needs each sent again and keeps the earlier details unless new ones come; the session and its callback
// say what is asked for.

const REASON = 'The selfie is blurred';
const database = useTestDatabase({ maxConnections: 10 });
const clock = testClock();
let app: BackendApp;
let vault: DocumentVault;
let directory: string;
let removeFolder: () => Promise<void>;
let acme: TestOrganization;
let portrait: Buffer;

beforeAll(async () => {
  ({ vault, directory, remove: removeFolder } = await temporaryVault());
  app = await buildTestApp(database.handle, { now: clock.now, vault });
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

const headers = () => ({ 'x-service-api-key': acme.liveKey });
const upload = (sessionId: string, kind: string, data = portrait, contentType = 'image/png') =>
  uploadDocument(app, acme.liveKey, sessionId, kind, data, contentType);
const submit = (sessionId: string, payload: object) =>
  app.inject({ method: 'POST', url: `/v1/verify/sessions/${sessionId}/submit`, headers: headers(), payload });
const getSession = (sessionId: string) =>
  app.inject({ method: 'GET', url: `/v1/verify/sessions/${sessionId}`, headers: headers() });

/** A reviewer's decision, as main-api makes it: requires_input with the documents to send again. */
async function decide(sessionId: string, documents: DocumentKind[], reason = REASON) {
  await unitOfWork(database.db, (work) =>
    moveSession(
      work,
      { sessionId, to: 'requires_input', actor: 'reviewer:r1', reason, resubmitDocuments: documents, now: clock.now() },
      {},
    ),
  );
  // The person answers later.
  clock.advance(60_000);
}

/** A kyc session submitted with a passport (front and selfie only), then asked for `documents` again. */
async function kycAskedFor(documents: DocumentKind[], idType = 'passport', idNumber = 'AK1234567') {
  const sessionId = await createdSessionId(app, acme.liveKey, { type: 'kyc', externalEndUserId: 'person-1' });
  const kinds =
    idType === 'passport' ? ['id_document_front', 'selfie'] : ['id_document_front', 'id_document_back', 'selfie'];
  for (const kind of kinds) expect((await upload(sessionId, kind)).statusCode).toBe(201);
  expect((await submit(sessionId, { idType, idNumber })).statusCode).toBe(200);
  clock.advance(60_000);
  await decide(sessionId, documents);
  return sessionId;
}

/** A kyb session submitted with two director IDs, then asked for `documents` again. */
async function kybAskedFor(documents: DocumentKind[]) {
  const sessionId = await createdSessionId(app, acme.liveKey, { type: 'kyb', externalEndUserId: 'company-1' });
  const pdf = await pdfDocument();
  for (const kind of ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate']) {
    expect((await upload(sessionId, kind, pdf, 'application/pdf')).statusCode).toBe(201);
  }
  for (let director = 0; director < 2; director += 1) {
    expect((await upload(sessionId, 'director_id')).statusCode).toBe(201);
  }
  expect((await submit(sessionId, { registrationNumber: 'PVT-AB12CD3', companyName: 'Acme Ltd' })).statusCode).toBe(
    200,
  );
  clock.advance(60_000);
  await decide(sessionId, documents);
  return sessionId;
}

const documentRows = (sessionId: string) =>
  database.db
    .select()
    .from(verificationDocuments)
    .where(eq(verificationDocuments.sessionId, sessionId))
    .orderBy(verificationDocuments.createdAt, verificationDocuments.id);
const currentIds = async (sessionId: string, kind: DocumentKind) =>
  (
    await database.db
      .select({ id: verificationDocuments.id })
      .from(verificationDocuments)
      .where(
        and(
          eq(verificationDocuments.sessionId, sessionId),
          eq(verificationDocuments.kind, kind),
          isNull(verificationDocuments.supersededAt),
        ),
      )
  ).map(({ id }) => id);
const filesOf = async (sessionId: string) =>
  (await storedFiles(directory)).filter((file) => file.path.includes(sessionId));
async function detailsOf(sessionId: string) {
  const [row] = await database.db
    .select({ details: verificationSessions.submittedDetails, type: verificationSessions.type })
    .from(verificationSessions)
    .where(eq(verificationSessions.id, sessionId));
  const sealed = Buffer.from(row?.details ?? Buffer.alloc(0));
  return JSON.parse(vault.open(`${row?.type}/${sessionId}/details`, sealed).bytes.toString()) as object;
}

describe('uploads while a decision names documents to send again', () => {
  it('refuses any other kind with 409 naming the kinds asked for, and stores nothing', async () => {
    const sessionId = await kycAskedFor(['selfie', 'id_document_front']);
    const before = { rows: await documentRows(sessionId), files: await filesOf(sessionId) };

    const refused = await upload(sessionId, 'id_document_back');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ success: false, code: 'conflict' });
    expect(refused.json().error).toContain('asks only for selfie, id_document_front to be sent again');
    expect(refused.json().error).toContain('id_document_back');
    expect(await documentRows(sessionId)).toEqual(before.rows);
    expect((await filesOf(sessionId)).map((file) => file.path).sort()).toEqual(
      before.files.map((file) => file.path).sort(),
    );
    // An unknown kind is still the 400 naming `kind`, before anything else.
    expect((await upload(sessionId, 'passport_scan')).json()).toMatchObject({ details: [{ path: '/kind' }] });
  });

  it('replaces the earlier document of an asked-for kind and keeps the others', async () => {
    const sessionId = await kycAskedFor(['selfie']);
    const [oldSelfie] = await currentIds(sessionId, 'selfie');
    const [front] = await currentIds(sessionId, 'id_document_front');

    const sent = await upload(sessionId, 'selfie');
    expect(sent.statusCode).toBe(201);
    expect(await currentIds(sessionId, 'selfie')).toEqual([sent.json().data.id]);
    expect(await currentIds(sessionId, 'id_document_front')).toEqual([front]);
    const old = (await documentRows(sessionId)).find((row) => row.id === oldSelfie);
    expect(old?.supersededAt).toEqual(clock.now());
  });

  it('replaces the whole set of director IDs with the first one sent again; later ones add up again', async () => {
    const sessionId = await kybAskedFor(['director_id']);
    const oldDirectors = await currentIds(sessionId, 'director_id');
    expect(oldDirectors).toHaveLength(2);
    expect((await upload(sessionId, 'cr12', await pdfDocument(), 'application/pdf')).statusCode).toBe(409);

    const firstAt = clock.now();
    const first = (await upload(sessionId, 'director_id')).json().data.id as string;
    expect(await currentIds(sessionId, 'director_id')).toEqual([first]);
    clock.advance(1_000);
    const second = (await upload(sessionId, 'director_id')).json().data.id as string;
    expect((await currentIds(sessionId, 'director_id')).sort()).toEqual([first, second].sort());
    const rows = await documentRows(sessionId);
    expect(rows.filter((row) => oldDirectors.includes(row.id)).map((row) => row.supersededAt)).toEqual([
      firstAt,
      firstAt,
    ]);
    expect(rows.filter((row) => row.kind === 'cr12' && row.supersededAt === null)).toHaveLength(1);
  });

  it.skipIf(missing(postgresServer))(
    'keeps every director ID of simultaneous first uploads after the decision, and none of the earlier set (PostgreSQL)',
    async () => {
      const sessionId = await kybAskedFor(['director_id']);
      const oldDirectors = await currentIds(sessionId, 'director_id');
      const responses = await Promise.all(Array.from({ length: 4 }, () => upload(sessionId, 'director_id')));
      expect(responses.map((response) => response.statusCode)).toEqual([201, 201, 201, 201]);
      const current = await currentIds(sessionId, 'director_id');
      expect(current.sort()).toEqual(responses.map((response) => response.json().data.id as string).sort());
      expect(current.some((id) => oldDirectors.includes(id))).toBe(false);
    },
  );

  it('takes any kind when the decision named no documents, and director IDs add up as before', async () => {
    const sessionId = await kybAskedFor([]);
    expect((await getSession(sessionId)).json().data).toMatchObject({
      status: 'requires_input',
      resubmitDocuments: null,
    });
    expect((await upload(sessionId, 'cr12', await pdfDocument(), 'application/pdf')).statusCode).toBe(201);
    expect((await upload(sessionId, 'director_id')).statusCode).toBe(201);
    expect(await currentIds(sessionId, 'director_id')).toHaveLength(3);
    // Details may be left out here too: the earlier ones are kept.
    const submitted = await submit(sessionId, {});
    expect(submitted.statusCode).toBe(200);
    expect(await detailsOf(sessionId)).toEqual({
      type: 'kyb',
      registrationNumber: 'PVT-AB12CD3',
      companyName: 'Acme Ltd',
    });
  });
});

describe('submitting after a decision named documents', () => {
  it('needs each asked-for document sent again (400 naming it), and changes nothing until then', async () => {
    const sessionId = await kycAskedFor(['selfie', 'id_document_front']);
    await upload(sessionId, 'id_document_front');
    const refused = await submit(sessionId, {});
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'validation_error',
      error: 'The session cannot be submitted yet; documents to send again: selfie',
      details: [{ path: '/documents/selfie', message: 'must be sent again' }],
    });
    // With wrong details too, every problem in one answer.
    const both = await submit(sessionId, { idType: 'passport', idNumber: '12' });
    expect(both.json().details).toEqual([
      { path: '/idNumber', message: expect.any(String) },
      { path: '/documents/selfie', message: 'must be sent again' },
    ]);
    expect(await statusOf(database.db, sessionId)).toBe('requires_input');
  });

  it('keeps the sealed details of the previous submission when none are sent, and checks documents against them', async () => {
    // A passport: without the kept ID type the submit would ask for the back of an ID card.
    const sessionId = await kycAskedFor(['selfie']);
    const [before] = await database.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    await upload(sessionId, 'selfie');
    const submitted = await submit(sessionId, {});
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().data).toMatchObject({
      status: 'processing',
      submittedAt: clock.now().toISOString(),
      lastError: null,
      resubmitDocuments: null,
    });
    const [after] = await database.db
      .select({ details: verificationSessions.submittedDetails })
      .from(verificationSessions)
      .where(eq(verificationSessions.id, sessionId));
    expect(Buffer.from(after?.details ?? []).equals(Buffer.from(before?.details ?? [1]))).toBe(true);
    expect(await detailsOf(sessionId)).toEqual({ type: 'kyc', idType: 'passport', idNumber: 'AK1234567' });
  });

  it('checks details that are sent and lets them replace the earlier ones', async () => {
    const sessionId = await kycAskedFor(['selfie'], 'national_id', '27183945');
    await upload(sessionId, 'selfie');
    const invalid = await submit(sessionId, { idType: 'national_id' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().details).toEqual([{ path: '/idNumber', message: 'is required' }]);

    const replaced = await submit(sessionId, { idType: 'alien_id', idNumber: 'ab123456' });
    expect(replaced.statusCode).toBe(200);
    expect(await detailsOf(sessionId)).toEqual({ type: 'kyc', idType: 'alien_id', idNumber: 'AB123456' });
  });

  it('answers what is asked for on the session and in the requires_input callback, and clears it on submit', async () => {
    const sessionId = await kycAskedFor(['selfie']);
    const fetched = (await getSession(sessionId)).json().data;
    expect(fetched).toMatchObject({ status: 'requires_input', lastError: REASON, resubmitDocuments: ['selfie'] });
    const listed = await app.inject({
      method: 'GET',
      url: '/v1/verify/sessions?status=requires_input',
      headers: headers(),
    });
    // The list shows sessions without their checks, which only a session read by id carries.
    const { checks: _checks, ...withoutChecks } = fetched;
    expect(listed.json().data.sessions).toEqual([withoutChecks]);

    /** The data of the session's events of `type`, oldest first. */
    const eventsData = async (type: string) => {
      const events = await database.db
        .select({ payload: webhookEvents.payload })
        .from(webhookEvents)
        .where(
          and(eq(webhookEvents.type, type), sql`${webhookEvents.payload} -> 'data' ->> 'sessionId' = ${sessionId}`),
        )
        .orderBy(webhookEvents.createdAt);
      return events.map((event) => (event.payload as { data: Record<string, unknown> }).data);
    };
    expect(await eventsData('verification_session.requires_input')).toEqual([
      {
        sessionId,
        type: 'kyc',
        status: 'requires_input',
        previousStatus: 'processing',
        environment: 'live',
        externalEndUserId: 'person-1',
        lastError: REASON,
        lastErrorCode: null,
        resubmitDocuments: ['selfie'],
      },
    ]);

    await upload(sessionId, 'selfie');
    expect((await submit(sessionId, {})).statusCode).toBe(200);
    expect((await getSession(sessionId)).json().data.resubmitDocuments).toBeNull();
    const processing = await eventsData('verification_session.processing');
    expect(processing.map((data) => [data.previousStatus, data.resubmitDocuments])).toEqual([
      ['pending', null],
      ['requires_input', null],
    ]);
  });
});
