import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../../test/app-fixtures.js';
import { ID_NUMBER, useCaptureRoutes } from '../../../../test/capture-route-fixtures.js';
import { uploadDocument } from '../../../../test/document-fixtures.js';
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
  { app = setup.app, key = setup.acme.testKey }: { app?: BackendApp; key?: string } = {},
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
    payload: { idType: 'national_id', idNumber },
  });
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
});
