import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { insertPendingSession, moveTestSession } from '../../../test/verification-session-fixtures.js';

// GET /v1/verification-sessions: the organization's sessions of both environments, newest first, filtered and paged
// (docs/decisions.md#organization-session-list).

let t: TestApp;
let organizationId: string;
let otherOrganizationId: string;
const OWNER = 'user_sessions_owner';
/** 1 March 2026, 09:00 UTC: 12:00 in Nairobi. */
const BASE = Date.parse('2026-03-01T09:00:00Z');
const at = (minutes: number) => new Date(BASE + minutes * 60_000);
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  await insertUser(t.db, { id: OWNER });
  organizationId = await insertOrganization(t.db, { members: [{ userId: OWNER, role: 'owner' }] });
  otherOrganizationId = await insertOrganization(t.db);
  const add = async (name: string, input: Parameters<typeof insertPendingSession>[1]) => {
    ids[name] = await insertPendingSession(t.db, input);
  };
  await add('liveKyc', { organizationId, environment: 'live', type: 'kyc', createdAt: at(0), externalEndUserId: 'u1' });
  await add('testKyb', {
    organizationId,
    environment: 'test',
    type: 'kyb',
    createdAt: at(10),
    externalEndUserId: 'u2',
  });
  await add('testKyc', {
    organizationId,
    environment: 'test',
    type: 'kyc',
    createdAt: at(20),
    externalEndUserId: 'u1',
  });
  // 23:30 on 1 March in Nairobi is 20:30 UTC; 00:30 on 2 March in Nairobi is 21:30 UTC on 1 March.
  await add('lateOnFirst', { organizationId, environment: 'live', createdAt: at(690), externalEndUserId: 'u3' });
  await add('secondDay', { organizationId, environment: 'live', createdAt: at(750), externalEndUserId: 'u3' });
  await add('other', { organizationId: otherOrganizationId, createdAt: at(5), externalEndUserId: 'u1' });
  await moveTestSession(t.db, ids['testKyb'] as string, { to: 'processing', actor: 'hosted_page', now: at(11) });
});
afterAll(async () => {
  await t?.close();
});

async function list(query: string) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/verification-sessions${query}`,
    headers: { ...(await authHeader(OWNER)), 'x-organization-id': organizationId },
  });
}

async function listedIds(query: string): Promise<string[]> {
  const response = await list(query);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ data: { sessions: Array<{ sessionId: string }> } }>().data.sessions.map((s) => s.sessionId);
}

const named = (...names: string[]) => names.map((name) => ids[name]);

describe('GET /v1/verification-sessions', () => {
  it("lists the organization's sessions of both environments, newest first, never another organization's", async () => {
    expect(await listedIds('')).toEqual(named('secondDay', 'lateOnFirst', 'testKyc', 'testKyb', 'liveKyc'));
  });

  it('answers each session as backend-api does, without the hosted page URL', async () => {
    const response = await list('?externalEndUserId=u2');
    const [session] = response.json<{ data: { sessions: Array<Record<string, unknown>> } }>().data.sessions;
    expect(session).toMatchObject({
      sessionId: ids['testKyb'],
      type: 'kyb',
      environment: 'test',
      status: 'processing',
      externalEndUserId: 'u2',
      price: 200,
      createdAt: at(10).toISOString(),
    });
    expect(session).not.toHaveProperty('verificationUrl');
    expect(response.body).not.toContain('/session/');
  });

  it('answers each session of the list as its own page does', async () => {
    const response = await list('');
    const sessions = response.json<{ data: { sessions: Array<{ sessionId: string }> } }>().data.sessions;
    expect(sessions).toHaveLength(5);
    for (const listed of sessions) {
      const alone = await t.app.inject({
        method: 'GET',
        url: `/v1/verification-sessions/${listed.sessionId}`,
        headers: { ...(await authHeader(OWNER)), 'x-organization-id': organizationId },
      });
      expect(alone.statusCode).toBe(200);
      expect(listed).toEqual(alone.json<{ data: { session: unknown } }>().data.session);
    }
  });

  it('filters by status, type, environment and end user, together', async () => {
    expect(await listedIds('?status=processing')).toEqual(named('testKyb'));
    expect(await listedIds('?status=pending&type=kyc')).toEqual(
      named('secondDay', 'lateOnFirst', 'testKyc', 'liveKyc'),
    );
    expect(await listedIds('?type=kyb')).toEqual(named('testKyb'));
    expect(await listedIds('?environment=test')).toEqual(named('testKyc', 'testKyb'));
    expect(await listedIds('?environment=live&externalEndUserId=u1')).toEqual(named('liveKyc'));
    expect(await listedIds('?externalEndUserId=u1')).toEqual(named('testKyc', 'liveKyc'));
    expect(await listedIds('?status=verified')).toEqual([]);
  });

  it('filters by creation period: a date is a day in Nairobi (a `to` day included), a date-time a moment', async () => {
    expect(await listedIds('?from=2026-03-01&to=2026-03-01')).toEqual(
      named('lateOnFirst', 'testKyc', 'testKyb', 'liveKyc'),
    );
    expect(await listedIds('?from=2026-03-02')).toEqual(named('secondDay'));
    expect(await listedIds(`?from=${at(10).toISOString()}&to=${at(20).toISOString()}`)).toEqual(named('testKyb'));
  });

  it('pages with the cursor, without skipping or repeating a session', async () => {
    const first = await list('?limit=2');
    const page1 = first.json<{ data: { sessions: Array<{ sessionId: string }>; nextCursor: string | null } }>().data;
    expect(page1.sessions.map((s) => s.sessionId)).toEqual(named('secondDay', 'lateOnFirst'));
    expect(page1.nextCursor).not.toBeNull();
    const second = await list(`?limit=2&cursor=${page1.nextCursor}`);
    const page2 = second.json<{ data: { sessions: Array<{ sessionId: string }>; nextCursor: string | null } }>().data;
    expect(page2.sessions.map((s) => s.sessionId)).toEqual(named('testKyc', 'testKyb'));
    const third = await list(`?limit=2&cursor=${page2.nextCursor}`);
    const page3 = third.json<{ data: { sessions: Array<{ sessionId: string }>; nextCursor: string | null } }>().data;
    expect(page3).toEqual({ sessions: [expect.objectContaining({ sessionId: ids['liveKyc'] })], nextCursor: null });
  });

  it('gives 50 sessions a page unless asked, and at most 100', async () => {
    const organization = await insertOrganization(t.db, { members: [{ userId: OWNER }] });
    for (let minute = 0; minute < 51; minute += 1) {
      await insertPendingSession(t.db, { organizationId: organization, createdAt: at(minute) });
    }
    const headers = { ...(await authHeader(OWNER)), 'x-organization-id': organization };
    const response = await t.app.inject({ method: 'GET', url: '/v1/verification-sessions', headers });
    const data = response.json<{ data: { sessions: unknown[]; nextCursor: string | null } }>().data;
    expect(data.sessions).toHaveLength(50);
    const rest = await t.app.inject({
      method: 'GET',
      url: `/v1/verification-sessions?cursor=${data.nextCursor}`,
      headers,
    });
    expect(rest.json<{ data: { sessions: unknown[]; nextCursor: null } }>().data).toMatchObject({ nextCursor: null });
    expect(rest.json<{ data: { sessions: unknown[] } }>().data.sessions).toHaveLength(1);
    expect((await list('?limit=101')).statusCode).toBe(400);
  });

  it.each([
    ['an unknown status', '?status=done', 'querystring/status'],
    ['an unknown type', '?type=kyx', 'querystring/type'],
    ['an unknown environment', '?environment=prod', 'querystring/environment'],
    ['a date that is not one', '?from=2026-02-30', 'querystring/from'],
    ['`to` before `from`', '?from=2026-03-02&to=2026-03-01', 'querystring/from'],
    ['a forged cursor', '?cursor=bm90LWEtY3Vyc29y', 'querystring/cursor'],
    ['an unknown parameter', '?colour=red', 'querystring'],
  ])('refuses %s with a 400 naming it', async (_what, query, path) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ code: string; details: Array<{ path: string }> }>();
    expect(body.code).toBe('validation_error');
    expect(body.details.map((detail) => detail.path).join(' ')).toContain(path);
  });
});
