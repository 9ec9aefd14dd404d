import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { insertPendingSession, moveTestSession, recordAttempts } from '../../../test/verification-session-fixtures.js';

// GET /v1/verification-sessions/:id: the session with its status changes, its callbacks and their attempts, and its
// decision (docs/decisions.md#organization-session-list).

let t: TestApp;
let organizationId: string;
let sessionId: string;
const OWNER = 'user_session_reader';
const BASE = Date.parse('2026-03-01T09:00:00Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000);

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { id: OWNER });
  organizationId = await insertOrganization(t.db, { members: [{ userId: OWNER, role: 'developer' }] });
  sessionId = await insertPendingSession(t.db, { organizationId, environment: 'live', createdAt: at(0) });
  await moveTestSession(t.db, sessionId, { to: 'processing', actor: 'hosted_page', now: at(5) });
  await moveTestSession(t.db, sessionId, {
    to: 'requires_input',
    actor: 'reviewer:user_platform_reviewer',
    reason: 'The selfie is blurred',
    now: at(30),
  });
  await recordAttempts(t.db, 'verification_session.created', sessionId, [
    { responseStatus: null, at: at(0.1) },
    { responseStatus: 500, at: at(1) },
    { responseStatus: 204, at: at(3) },
  ]);
});
afterAll(async () => {
  await t?.close();
});

async function read(id: string, organization = organizationId, userId = OWNER) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/verification-sessions/${id}`,
    headers: { ...(await authHeader(userId)), 'x-organization-id': organization },
  });
}

describe('GET /v1/verification-sessions/:id', () => {
  it('answers the session with every status change, who made it and why', async () => {
    const response = await read(sessionId);
    expect(response.statusCode, response.body).toBe(200);
    const { data } = response.json<{ data: Record<string, unknown> }>();
    expect(data['session']).toMatchObject({
      sessionId,
      status: 'requires_input',
      environment: 'live',
      lastError: 'The selfie is blurred',
    });
    expect(data['session']).not.toHaveProperty('verificationUrl');
    expect(data['transitions']).toEqual([
      {
        fromStatus: null,
        toStatus: 'pending',
        actor: { kind: 'api_key', id: 'test-key' },
        reason: null,
        at: at(0).toISOString(),
      },
      {
        fromStatus: 'pending',
        toStatus: 'processing',
        actor: { kind: 'hosted_page', id: null },
        reason: null,
        at: at(5).toISOString(),
      },
      {
        fromStatus: 'processing',
        toStatus: 'requires_input',
        // The platform's reviewer is named by role only.
        actor: { kind: 'reviewer', id: null },
        reason: 'The selfie is blurred',
        at: at(30).toISOString(),
      },
    ]);
    expect(response.body).not.toContain('user_platform_reviewer');
  });

  it('answers the decision with its reason and source', async () => {
    const { data } = (await read(sessionId)).json<{ data: Record<string, unknown> }>();
    expect(data['decision']).toEqual({
      outcome: 'requires_input',
      reason: 'The selfie is blurred',
      source: 'manual',
      decidedAt: at(30).toISOString(),
    });
  });

  it('answers every callback with its attempts: time, status code and outcome, never the URL or error text', async () => {
    const response = await read(sessionId);
    const { data } = response.json<{ data: { callbacks: Array<Record<string, unknown>> } }>();
    expect(data.callbacks.map((callback) => callback['type'])).toEqual([
      'verification_session.created',
      'verification_session.processing',
      'verification_session.requires_input',
    ]);
    expect(data.callbacks[0]).toMatchObject({
      status: 'delivered',
      deliveredAt: at(3).toISOString(),
      attempts: [
        { delivery: 1, attempt: 1, at: at(0.1).toISOString(), statusCode: null, outcome: 'retrying', durationMs: 12 },
        { delivery: 1, attempt: 2, at: at(1).toISOString(), statusCode: 500, outcome: 'retrying', durationMs: 12 },
        { delivery: 1, attempt: 3, at: at(3).toISOString(), statusCode: 204, outcome: 'delivered', durationMs: 12 },
      ],
    });
    expect(data.callbacks[2]).toMatchObject({ status: 'pending', deliveredAt: null, attempts: [] });
    expect(response.body).not.toContain('hooks.example.com');
    expect(response.body).not.toContain('ECONNREFUSED');
  });

  it('answers a session not yet decided with no decision', async () => {
    const pending = await insertPendingSession(t.db, { organizationId, createdAt: at(40) });
    const { data } = (await read(pending)).json<{ data: Record<string, unknown> }>();
    expect(data['decision']).toBeNull();
    expect(data['callbacks']).toEqual([expect.objectContaining({ type: 'verification_session.created' })]);
  });

  it("is 404 for another organization's session, the same as for one that does not exist", async () => {
    await insertUser(t.db, { id: 'user_session_outsider' });
    const elsewhere = await insertOrganization(t.db, { members: [{ userId: 'user_session_outsider' }] });
    const foreign = await insertPendingSession(t.db, { organizationId: elsewhere });
    const theirs = await read(foreign);
    const unknown = await read(randomUUID());
    const withoutRequestId = ({ requestId: _id, ...body }: Record<string, unknown>) => body;
    expect(theirs.statusCode).toBe(404);
    expect(withoutRequestId(theirs.json())).toEqual(withoutRequestId(unknown.json()));
    expect(unknown.json()).toMatchObject({ success: false, code: 'not_found' });
    // Its own owner reads it.
    expect((await read(foreign, elsewhere, 'user_session_outsider')).statusCode).toBe(200);
  });

  it('is 400 for an id that is not a UUID', async () => {
    expect((await read('not-a-session')).statusCode).toBe(400);
  });
});
