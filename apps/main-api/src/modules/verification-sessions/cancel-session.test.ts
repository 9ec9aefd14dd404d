import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import {
  auditEventsOf,
  callbackTypes,
  holdMovements,
  insertPendingSession,
  moveTestSession,
  walletBalances,
} from '../../../test/verification-session-fixtures.js';

// POST /v1/verification-sessions/:id/cancel: the lifecycle's cancel, the one backend-api's API keys run, with the
// audit event (docs/decisions.md#cancel-from-the-main-api). On PostgreSQL (DATABASE_URL) the two cancels below race
// for real; on PGlite they are served one after the other, and the answer must be the same.

let t: TestApp;
let organizationId: string;
const OWNER = 'user_session_canceler';
const MEMBER = 'user_session_member';

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { id: OWNER });
  await insertUser(t.db, { id: MEMBER });
  organizationId = await insertOrganization(t.db, {
    members: [
      { userId: OWNER, role: 'owner' },
      { userId: MEMBER, role: 'member' },
    ],
  });
});
afterAll(async () => {
  await t?.close();
});

async function cancel(sessionId: string, options: { userId?: string; organization?: string } = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/verification-sessions/${sessionId}/cancel`,
    headers: {
      ...(await authHeader(options.userId ?? OWNER)),
      'x-organization-id': options.organization ?? organizationId,
    },
  });
}

describe('POST /v1/verification-sessions/:id/cancel', () => {
  it('cancels a pending session: the hold released, the callback written, the cancel audited', async () => {
    const sessionId = await insertPendingSession(t.db, { organizationId, environment: 'live', price: 50 });
    expect(await walletBalances(t.db, organizationId, 'live')).toEqual({ available: 100, held: 50 });

    const response = await cancel(sessionId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Verification session canceled',
      data: { sessionId, status: 'canceled', environment: 'live' },
    });
    expect(await walletBalances(t.db, organizationId, 'live')).toEqual({ available: 150, held: 0 });
    expect(await holdMovements(t.db, sessionId)).toEqual(['hold', 'release']);
    expect(await callbackTypes(t.db, sessionId)).toEqual([
      'verification_session.created',
      'verification_session.canceled',
    ]);
    const [audited] = await auditEventsOf(t.db, organizationId, 'verification_session.canceled');
    expect(audited).toMatchObject({
      actorUserId: OWNER,
      targetType: 'verification_session',
      targetId: sessionId,
      details: { sessionId, type: 'kyc', environment: 'live', price: 50 },
    });
    const timeline = await t.app.inject({
      method: 'GET',
      url: `/v1/verification-sessions/${sessionId}`,
      headers: { ...(await authHeader(OWNER)), 'x-organization-id': organizationId },
    });
    expect(timeline.json<{ data: { transitions: unknown[] } }>().data.transitions.at(-1)).toMatchObject({
      fromStatus: 'pending',
      toStatus: 'canceled',
      actor: { kind: 'member', id: OWNER },
    });
  });

  it('cancels a session waiting for input again', async () => {
    const sessionId = await insertPendingSession(t.db, { organizationId });
    await moveTestSession(t.db, sessionId, { to: 'processing', actor: 'hosted_page' });
    await moveTestSession(t.db, sessionId, { to: 'requires_input', actor: 'reviewer:r1', reason: 'Blurred' });
    expect((await cancel(sessionId)).statusCode).toBe(200);
    expect(await holdMovements(t.db, sessionId)).toEqual(['hold', 'release']);
  });

  it('is 409 for a session being checked or already decided, and changes nothing', async () => {
    const sessionId = await insertPendingSession(t.db, { organizationId });
    await moveTestSession(t.db, sessionId, { to: 'processing', actor: 'hosted_page' });
    const response = await cancel(sessionId);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'conflict' });
    expect(await holdMovements(t.db, sessionId)).toEqual(['hold']);
    await moveTestSession(t.db, sessionId, { to: 'verified', actor: 'reviewer:r1' });
    expect((await cancel(sessionId)).statusCode).toBe(409);
    expect(await holdMovements(t.db, sessionId)).toEqual(['capture', 'hold']);
  });

  it("is 404 for another organization's session, the same as for an unknown one, and leaves it alone", async () => {
    const elsewhere = await insertOrganization(t.db);
    const foreign = await insertPendingSession(t.db, { organizationId: elsewhere });
    const theirs = await cancel(foreign);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ code: 'not_found', error: 'Verification session not found' });
    expect((await cancel(randomUUID())).json()).toMatchObject({ error: 'Verification session not found' });
    expect(await holdMovements(t.db, foreign)).toEqual(['hold']);
  });

  it('is 403 for a role that may not cancel, and changes nothing', async () => {
    const sessionId = await insertPendingSession(t.db, { organizationId });
    const response = await cancel(sessionId, { userId: MEMBER });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'This needs the role owner, admin or developer' });
    expect(await holdMovements(t.db, sessionId)).toEqual(['hold']);
  });

  it('of two cancels at once, one cancels and the other is 409: the hold is released once', async () => {
    for (let round = 0; round < 3; round += 1) {
      const sessionId = await insertPendingSession(t.db, { organizationId, environment: 'test', price: 200 });
      const before = await walletBalances(t.db, organizationId, 'test');
      const answers = await Promise.all([cancel(sessionId), cancel(sessionId)]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
      expect(await holdMovements(t.db, sessionId)).toEqual(['hold', 'release']);
      expect(await walletBalances(t.db, organizationId, 'test')).toEqual({
        available: (before?.available ?? 0) + 200,
        held: (before?.held ?? 0) - 200,
      });
      expect((await callbackTypes(t.db, sessionId)).filter((type) => type.endsWith('.canceled'))).toHaveLength(1);
    }
  });
});
