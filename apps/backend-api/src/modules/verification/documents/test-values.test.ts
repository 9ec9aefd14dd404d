import { createApiKey } from '@platform/api-keys';
import { organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/app-fixtures.js';
import { ID_NUMBER, useCaptureRoutes } from '../../../../test/capture-route-fixtures.js';
import { pdfDocument, uploadDocument } from '../../../../test/document-fixtures.js';
import {
  createdSessionId,
  eventTypesOf,
  holdMovements,
  statusOf,
  transitionsOf,
} from '../../../../test/verification-fixtures.js';
import type { BackendApp } from '../../../app.js';

// The test ID numbers (docs/decisions.md#test-values): a test session the sandbox decides, submitted with one, is
// decided from it through the lifecycle; any other number, and any live session, is left in processing.

const setup = useCaptureRoutes();
const { database, clock } = setup;

async function submittedWith(
  idNumber: string,
  {
    app = setup.app,
    key = setup.acme.testKey,
    stated = {},
  }: { app?: BackendApp; key?: string; stated?: Record<string, string> } = {},
) {
  const sessionId = await createdSessionId(app, key, { type: 'kyc', externalEndUserId: 'person-1' });
  for (const kind of ['id_document_front', 'id_document_back', 'selfie']) {
    expect((await uploadDocument(app, key, sessionId, kind, setup.portrait)).statusCode).toBe(201);
  }
  clock.advance(1_000);
  const response = await app.inject({
    method: 'POST',
    url: `/v1/verify/sessions/${sessionId}/submit`,
    headers: { 'x-service-api-key': key },
    payload: { idType: 'national_id', idNumber, ...stated },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { sessionId, session: response.json().data };
}

/** The session as a test key with verified_data:read reads it, its checks and verified data expanded. */
async function expanded(sessionId: string) {
  const reader = await createApiKey(database.db, {
    organizationId: setup.acme.id,
    environment: 'test',
    permissions: ['verified_data:read'],
  });
  const response = await setup.app.inject({
    method: 'GET',
    url: `/v1/verify/sessions/${sessionId}?expand=verified_outputs`,
    headers: { 'x-service-api-key': reader.secret },
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

/** The kinds and outcomes of the session's checks made by the test values' fake results. */
function fakeChecksOf(session: { checks: { kind: string; source: string; outcome: string }[] }) {
  return session.checks.filter((check) => check.source === 'test').map(({ kind, outcome }) => `${kind}:${outcome}`);
}

async function kybSubmittedWith(registrationNumber: string) {
  const key = setup.acme.testKey;
  const sessionId = await createdSessionId(setup.app, key, { type: 'kyb', externalEndUserId: 'business-1' });
  const pdf = await pdfDocument(2);
  for (const kind of ['certificate_of_incorporation', 'cr12', 'kra_pin_certificate']) {
    expect((await uploadDocument(setup.app, key, sessionId, kind, pdf, 'application/pdf')).statusCode).toBe(201);
  }
  expect((await uploadDocument(setup.app, key, sessionId, 'director_id', setup.portrait)).statusCode).toBe(201);
  clock.advance(1_000);
  const response = await setup.submit(sessionId, { registrationNumber, companyName: 'Duka Safi Ltd' }, key);
  expect(response.statusCode, response.body).toBe(200);
  return { sessionId, session: response.json().data };
}

describe('test ID numbers', () => {
  it('00000001 verifies a test session at its submission: the callbacks and capture of a live decision', async () => {
    const { sessionId, session } = await submittedWith('00000001');
    expect(session).toMatchObject({ status: 'verified', lastError: null, environment: 'test' });
    expect(await eventTypesOf(database.db, sessionId)).toEqual([
      'verification_session.created',
      'verification_session.processing',
      'verification_session.verified',
    ]);
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
    expect((await transitionsOf(database.db, sessionId)).at(-1)).toMatchObject({
      from: 'processing',
      to: 'verified',
      actor: 'test_value',
    });
    // The decision reaches the metrics once committed, as a button's does.
    const metrics = (await setup.app.inject({ method: 'GET', url: '/metrics' })).body;
    expect(metrics).toMatch(
      /^verification_decision_duration_seconds_count\{(?=[^}]*environment="test")(?=[^}]*outcome="verified")(?=[^}]*source="sandbox")[^}]*\} 1$/m,
    );
  });

  it('00000002 rejects it, with a reason', async () => {
    const { sessionId, session } = await submittedWith('00000002');
    expect(session).toMatchObject({ status: 'rejected', lastError: expect.stringContaining('could not be verified') });
    expect(await holdMovements(database.db, sessionId)).toEqual(['capture', 'hold']);
  });

  it('00000003 asks for the selfie again, naming it', async () => {
    const { sessionId, session } = await submittedWith('00000003');
    expect(session).toMatchObject({
      status: 'requires_input',
      resubmitDocuments: ['selfie'],
      lastError: expect.stringContaining('selfie'),
    });
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold']);
  });

  it.each([
    ['00000004', 'review: a person decides'],
    [ID_NUMBER, 'any other number'],
  ])('%s leaves it processing (%s)', async (idNumber) => {
    const { sessionId, session } = await submittedWith(idNumber);
    expect(session.status).toBe('processing');
    expect(await holdMovements(database.db, sessionId)).toEqual(['hold']);
  });

  it('never decides a live session from its number, even one the sandbox decides', async () => {
    const manual = await submittedWith('00000001', { key: setup.acme.liveKey });
    expect(manual.session.status).toBe('processing');
    const sandbox = await buildTestApp(database.handle, {
      now: clock.now,
      vault: setup.vault,
      env: { HOSTED_PAGE_LIVE_SANDBOX: 'true', VERIFICATION_DECISIONS: 'live:*=sandbox' },
    });
    try {
      const live = await submittedWith('00000001', { app: sandbox, key: setup.acme.liveKey });
      expect(live.session).toMatchObject({ environment: 'live', status: 'processing' });
      expect(await statusOf(database.db, live.sessionId)).toBe('processing');
      expect(await holdMovements(database.db, live.sessionId)).toEqual(['hold']);
    } finally {
      await sandbox.close();
    }
  });

  it('decides from fake checks of the shapes live sessions get, and the verified data is the typed record', async () => {
    const { sessionId } = await submittedWith('00000001');
    const session = await expanded(sessionId);
    expect(fakeChecksOf(session)).toEqual([
      'id_registry:passed',
      'document_authenticity:passed',
      'face_match:passed',
      'liveness:passed',
    ]);
    expect(session.checks.find((check: { kind: string }) => check.kind === 'face_match').details).toEqual({
      comparedWith: 'registry_photo',
    });
    expect(session.verifiedOutputs).toEqual({
      type: 'kyc',
      person: {
        firstName: 'TEST',
        middleName: null,
        lastName: 'PERSON',
        dateOfBirth: '1990-01-01',
        idType: 'national_id',
        idNumber: '00000001',
        documentExpiry: null,
        nationality: 'KEN',
        faceComparedWith: 'registry_photo',
      },
    });
  });

  it.each([
    ['00000002', 'document_authenticity:failed'],
    ['00000003', 'face_match:failed'],
    ['00000004', 'id_registry:attention'],
  ])('%s gets the failing fake check a live session of that outcome gets (%s)', async (idNumber, failing) => {
    const { sessionId } = await submittedWith(idNumber);
    const session = await expanded(sessionId);
    expect(fakeChecksOf(session)).toContain(failing);
    expect(session.verifiedOutputs).toBeNull();
  });

  it('screens the person when the organization pays for the enhanced policy, as live', async () => {
    await database.db
      .update(organizations)
      .set({ verificationPolicy: 'enhanced' })
      .where(eq(organizations.id, setup.acme.id));
    const { sessionId, session } = await submittedWith('00000001');
    expect(session.status).toBe('verified');
    expect(fakeChecksOf(await expanded(sessionId))).toContain('aml_screening:passed');
  });

  it('PVT-00000001 verifies a test KYB with the registry record; PVT-00000004 leaves it for a person', async () => {
    const verified = await kybSubmittedWith('PVT-00000001');
    expect(verified.session.status).toBe('verified');
    const read = await expanded(verified.sessionId);
    expect(fakeChecksOf(read)).toEqual(['business_registry:passed', 'directors:passed']);
    expect(read.verifiedOutputs.business).toMatchObject({
      registeredName: 'DUKA SAFI LTD',
      registrationNumber: 'PVT-00000001',
      status: 'registered',
    });
    expect(await holdMovements(database.db, verified.sessionId)).toEqual(['capture', 'hold']);

    const review = await kybSubmittedWith('PVT-00000004');
    expect(review.session.status).toBe('processing');
    expect(fakeChecksOf(await expanded(review.sessionId))).toEqual(['business_registry:attention', 'directors:passed']);
  });
});
