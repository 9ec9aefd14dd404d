import { randomUUID } from 'node:crypto';
import type { MembershipRole } from '@platform/db';
import { auditEvents } from '@platform/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';

// GET /v1/organizations/:id/audit-events over events stored with chosen times (the recording itself is tested in
// recording.test.ts, through the routes that make the changes).

const ROLES: MembershipRole[] = ['owner', 'admin', 'developer', 'billing', 'member'];
const userOf = (role: MembershipRole) => `user_audit_${role}`;
const OTHER_OWNER = 'user_audit_other_owner';
const BASE = Date.parse('2024-05-01T00:00:00.000Z');
const at = (minute: number) => new Date(BASE + minute * 60_000);

let t: TestApp;
let organizationId: string;
let otherOrganizationId: string;
/** The seeded events of `organizationId`, newest first. */
let seeded: { id: string; action: string; createdAt: Date }[];

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) await insertUser(t.db, { id: userOf(role) });
  await insertUser(t.db, { id: OTHER_OWNER });
  organizationId = await insertOrganization(t.db, {
    members: ROLES.map((role) => ({ userId: userOf(role), role })),
  });
  otherOrganizationId = await insertOrganization(t.db, { members: [{ userId: OTHER_OWNER, role: 'owner' }] });

  // 25 events a minute apart, and two at the same instant (ordered by id), plus one of another organization.
  const values = Array.from({ length: 25 }, (_, minute) => ({
    organizationId,
    actorUserId: userOf('owner'),
    action: minute % 3 === 0 ? 'api_key.revoked' : 'api_key.created',
    targetType: 'api_key',
    targetId: randomUUID(),
    requestId: `req-${minute}`,
    ip: '203.0.113.7',
    details: { minute },
    createdAt: at(minute),
  }));
  values.push(
    { ...values[0]!, targetId: randomUUID(), details: { minute: 30 }, createdAt: at(30) },
    { ...values[0]!, targetId: randomUUID(), details: { minute: 30 }, createdAt: at(30) },
  );
  const rows = await t.db.insert(auditEvents).values(values).returning();
  await t.db.insert(auditEvents).values({ ...values[1]!, organizationId: otherOrganizationId });
  seeded = rows
    .map((row) => ({ id: row.id, action: row.action, createdAt: row.createdAt }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
});
afterAll(async () => {
  await t?.close();
});

interface Page {
  auditEvents: { id: string; action: string; actorUserId: string | null; createdAt: string; details: unknown }[];
  nextCursor: string | null;
}

async function list(query = '', userId = userOf('owner'), organization = organizationId) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/organizations/${organization}/audit-events${query}`,
    headers: await authHeader(userId),
  });
}

async function allPages(query: string, limit: number): Promise<Page[]> {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const separator = query === '' ? '?' : '&';
    const response = await list(
      `${query}${separator}limit=${limit}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<{ data: Page }>().data;
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return pages;
}

describe('GET /v1/organizations/:id/audit-events', () => {
  it('answers the first 20 newest first, each with what was recorded', async () => {
    const response = await list();
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json<{ success: true; data: Page }>();
    expect(body.success).toBe(true);
    expect(body.data.auditEvents.map((event) => event.id)).toEqual(seeded.slice(0, 20).map((event) => event.id));
    expect(body.data.nextCursor).toEqual(expect.any(String));
    expect(body.data.auditEvents[2]).toEqual({
      id: seeded[2]!.id,
      action: 'api_key.revoked',
      actorUserId: userOf('owner'),
      targetType: 'api_key',
      targetId: expect.any(String),
      requestId: 'req-24',
      ip: '203.0.113.7',
      details: { minute: 24 },
      createdAt: '2024-05-01T00:24:00.000Z',
    });
  });

  it('pages through every event once, in order, and says when there is no more', async () => {
    const pages = await allPages('', 4);
    expect(pages).toHaveLength(7);
    expect(pages.at(-1)?.nextCursor).toBeNull();
    expect(pages.flatMap((page) => page.auditEvents.map((event) => event.id))).toEqual(seeded.map((event) => event.id));
  });

  it('filters by action, exactly', async () => {
    const pages = await allPages('?action=api_key.revoked', 3);
    const ids = pages.flatMap((page) => page.auditEvents.map((event) => event.id));
    expect(ids).toEqual(seeded.filter((event) => event.action === 'api_key.revoked').map((event) => event.id));
    const none = await list('?action=api_key');
    expect(none.json<{ data: Page }>().data).toEqual({ auditEvents: [], nextCursor: null });
  });

  it('filters by time: from inclusive, to exclusive, with any time zone', async () => {
    const response = await list(`?from=${encodeURIComponent('2024-05-01T03:10:00+03:00')}&to=2024-05-01T00:13:00Z`);
    expect(response.statusCode, response.body).toBe(200);
    const minutes = response.json<{ data: Page }>().data.auditEvents.map((event) => event.details);
    expect(minutes).toEqual([{ minute: 12 }, { minute: 11 }, { minute: 10 }]);
    const pages = await allPages('?from=2024-05-01T00:05:00Z&action=api_key.created', 2);
    const ids = pages.flatMap((page) => page.auditEvents.map((event) => event.id));
    expect(ids).toEqual(
      seeded.filter((event) => event.action === 'api_key.created' && event.createdAt >= at(5)).map((event) => event.id),
    );
  });

  it.each([
    ['a from that is not a date-time', '?from=yesterday', 'querystring/from'],
    ['a date without a time', '?from=2024-05-01', 'querystring/from'],
    ['a time without a zone', '?to=2024-05-01T10:00:00', 'querystring/to'],
    ['an impossible day', '?to=2024-02-30T10:00:00Z', 'querystring/to'],
    ['from after to', '?from=2024-05-02T00:00:00Z&to=2024-05-01T00:00:00Z', 'querystring/from'],
    ['year 0', '?from=0000-01-01T00:00:00Z', 'querystring/from'],
    [
      '0001-01-01 east of UTC (year 0 in UTC)',
      `?from=${encodeURIComponent('0001-01-01T00:00:00+01:00')}`,
      'querystring/from',
    ],
    ['9999-12-31 west of UTC (year 10000 in UTC)', '?to=9999-12-31T23:59:59-12:00', 'querystring/to'],
    ["JavaScript's last day", `?to=${encodeURIComponent('+275760-09-13T00:00:00Z')}`, 'querystring/to'],
    ["PostgreSQL's first year", '?from=-004713-01-01T00:00:00Z', 'querystring/from'],
    ['a leap second', '?from=2016-12-31T23:59:60Z', 'querystring/from'],
    ['a limit of 0', '?limit=0', 'querystring/limit'],
    ['a limit of 101', '?limit=101', 'querystring/limit'],
    ['a cursor it did not give', '?cursor=bm90LWEtY3Vyc29y', 'querystring/cursor'],
    ['an unknown parameter', '?actor=me', 'querystring'],
  ])('answers 400 for %s', async (_label, query, path) => {
    const response = await list(query);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(response.body).toContain(path);
  });

  it('says what dates it takes, naming the parameter', async () => {
    const response = await list('?from=0000-01-01T00:00:00Z');
    expect(response.json()).toMatchObject({
      error: expect.stringMatching(
        /^from must be a date-time with a time zone .* from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z$/,
      ),
      details: [{ path: 'querystring/from' }],
    });
  });

  it('takes the first and last moments that can be stored', async () => {
    const response = await list('?from=0001-01-01T00:00:00Z&to=9999-12-31T23:59:59.999Z');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<{ data: Page }>().data.auditEvents.length).toBeGreaterThan(0);
  });

  it('lets owners and admins read it', async () => {
    for (const role of ['owner', 'admin'] as const) {
      expect((await list('?limit=1', userOf(role))).statusCode).toBe(200);
    }
  });

  it.each(['developer', 'billing', 'member'] as const)('refuses a %s with 403 naming the roles', async (role) => {
    const response = await list('', userOf(role));
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      success: false,
      code: 'forbidden',
      error: 'This needs the role owner or admin',
    });
  });

  it("answers 404 for another organization's log, an unknown one and a malformed id", async () => {
    for (const organization of [otherOrganizationId, randomUUID(), 'not-a-uuid']) {
      const response = await list('', userOf('owner'), organization);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found', error: 'Organization not found' });
    }
    // Its owner sees its single event, not this organization's.
    const other = await list('', OTHER_OWNER, otherOrganizationId);
    expect(other.json<{ data: Page }>().data.auditEvents).toHaveLength(1);
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/v1/organizations/${organizationId}/audit-events` });
    expect(response.statusCode).toBe(401);
  });
});
