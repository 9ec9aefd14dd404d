import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../../test/app-fixtures.js';
import { sessionsApiSuite } from '../../../test/sessions-api-suite.js';
import {
  createdSessionId,
  eventTypesOf,
  holdMovements,
  transitionsOf,
  walletState,
} from '../../../test/verification-fixtures.js';

const { suite, clock, get, acme, globex, snapshot } = sessionsApiSuite();

const decide = (key: string, id: string, body: unknown, idempotencyKey?: string) =>
  suite.app.inject({
    method: 'POST',
    url: `/v1/verify/sessions/${id}/test-decision`,
    headers: {
      'x-service-api-key': key,
      ...(idempotencyKey === undefined ? {} : { 'x-idempotency-key': idempotencyKey }),
    },
    payload: body as object,
  });

describe('POST /v1/verify/sessions/:id/test-decision', () => {
  it('submits a test session and approves it: the callbacks and the one capture of a live decision', async () => {
    const id = await createdSessionId(suite.app, acme.testKey);
    clock.advance(60_000);
    const submitted = await decide(acme.testKey, id, { status: 'processing' });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json()).toMatchObject({
      success: true,
      message: 'Test session moved to processing',
      data: { sessionId: id, environment: 'test', status: 'processing' },
    });
    clock.advance(60_000);
    const approved = await decide(acme.testKey, id, { status: 'verified' }, 'approve-1');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ status: 'verified', lastError: null });
    expect(await holdMovements(suite.db, id)).toEqual(['capture', 'hold']);
    expect(await eventTypesOf(suite.db, id)).toEqual([
      'verification_session.created',
      'verification_session.processing',
      'verification_session.verified',
    ]);
    expect((await transitionsOf(suite.db, id)).map(({ to, actor }) => [to, actor.split(':')[0]])).toEqual([
      ['pending', 'api_key'],
      ['processing', 'api_key'],
      ['verified', 'api_key'],
    ]);
    expect((await walletState(suite.db, acme.id, 'test')).ledger.held).toBe(0);

    const replay = await decide(acme.testKey, id, { status: 'verified' }, 'approve-1');
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toBe(approved.body);
    expect(await holdMovements(suite.db, id)).toEqual(['capture', 'hold']);
  });

  it('rejects with a reason, and asks for documents again naming them', async () => {
    const rejected = await createdSessionId(suite.app, acme.testKey);
    await decide(acme.testKey, rejected, { status: 'processing' });
    const rejection = await decide(acme.testKey, rejected, { status: 'rejected', reason: 'The ID is expired' });
    expect(rejection.json().data).toMatchObject({ status: 'rejected', lastError: 'The ID is expired' });
    expect(await holdMovements(suite.db, rejected)).toEqual(['capture', 'hold']);

    const again = await createdSessionId(suite.app, acme.testKey);
    await decide(acme.testKey, again, { status: 'processing' });
    const resubmission = await decide(acme.testKey, again, {
      status: 'requires_input',
      reason: 'The selfie is blurred',
      resubmitDocuments: ['selfie'],
    });
    expect(resubmission.statusCode).toBe(200);
    expect(resubmission.json().data).toMatchObject({
      status: 'requires_input',
      lastError: 'The selfie is blurred',
      resubmitDocuments: ['selfie'],
    });
    expect(await holdMovements(suite.db, again)).toEqual(['hold']);
    // Sent again, it is processing once more.
    expect((await decide(acme.testKey, again, { status: 'processing' })).json().data).toMatchObject({
      status: 'processing',
      lastError: null,
    });
  });

  it('refuses a live key with 403, whatever the session, and changes nothing', async () => {
    const live = await createdSessionId(suite.app, acme.liveKey);
    const before = await snapshot();
    for (const id of [live, '00000000-0000-4000-8000-000000000000']) {
      const refused = await decide(acme.liveKey, id, { status: 'processing' }, `live-${id}`);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({
        success: false,
        code: 'forbidden',
        error: expect.stringContaining('test sessions only'),
      });
    }
    expect(await snapshot()).toEqual(before);
    expect((await get(acme.liveKey, live)).json().data.status).toBe('pending');
  });

  it("answers 404 for another organization's session, as for an unknown one, and leaves it alone", async () => {
    const id = await createdSessionId(suite.app, acme.testKey);
    const before = await snapshot();
    const foreign = await decide(globex.testKey, id, { status: 'processing' });
    const unknown = await decide(globex.testKey, '00000000-0000-4000-8000-000000000000', { status: 'processing' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(unknown.json().error);
    expect(await snapshot()).toEqual(before);
  });

  it('answers 409 naming the status when it does not allow the move, and captures nothing more', async () => {
    const id = await createdSessionId(suite.app, acme.testKey);
    const early = await decide(acme.testKey, id, { status: 'verified' });
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({
      code: 'conflict',
      error: 'Cannot move a verification session from pending to verified',
    });
    await decide(acme.testKey, id, { status: 'processing' });
    await decide(acme.testKey, id, { status: 'verified' });
    const before = await snapshot();
    const twice = await decide(acme.testKey, id, { status: 'rejected' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().error).toBe('Cannot move a verification session from verified to rejected');
    expect(await snapshot()).toEqual(before);
    expect(await holdMovements(suite.db, id)).toEqual(['capture', 'hold']);
  });

  it('refuses fields the status does not take, unknown statuses and foreign documents with 400', async () => {
    const id = await createdSessionId(suite.app, acme.testKey);
    await decide(acme.testKey, id, { status: 'processing' });
    const before = await snapshot();
    const cases: [unknown, string][] = [
      [{ status: 'verified', reason: 'Fine' }, '/reason'],
      [{ status: 'rejected', resubmitDocuments: ['selfie'] }, '/resubmitDocuments'],
      [{ status: 'approved' }, '/status'],
      [{}, '/status'],
      [{ status: 'requires_input', resubmitDocuments: ['cr12'] }, '/documents'],
    ];
    for (const [body, path] of cases) {
      const refused = await decide(acme.testKey, id, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().details, JSON.stringify(body)).toEqual(
        expect.arrayContaining([expect.objectContaining({ path })]),
      );
    }
    expect(await snapshot()).toEqual(before);
    expect((await get(acme.testKey, id)).json().data.status).toBe('processing');
  });

  it('refuses a test session that another decision source decides with 409', async () => {
    // The suite's app decides test sessions with the sandbox; this one gives them to reviewers.
    const manual = await buildTestApp(suite.handle, {
      now: suite.clock.now,
      env: { VERIFICATION_DECISIONS: 'test:*=manual' },
    });
    try {
      const id = await createdSessionId(manual, acme.testKey);
      const refused = await manual.inject({
        method: 'POST',
        url: `/v1/verify/sessions/${id}/test-decision`,
        headers: { 'x-service-api-key': acme.testKey },
        payload: { status: 'processing' },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toContain('decided by manual');
      expect((await get(acme.testKey, id)).json().data.status).toBe('pending');
    } finally {
      await manual.close();
    }
  });
});
