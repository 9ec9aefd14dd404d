import { notifications, users } from '@platform/db/schema';
import { FormatRegistry } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  authHeader,
  createTestApp,
  insertOrganization,
  insertUser,
  TEST_AUDIENCE,
  TEST_ISSUER,
  type TestApp,
  tokenFor,
} from '../../../test/helpers.js';
import { signAccessToken } from '../../auth/tokens.js';
import { NotificationListSchema, NotificationSchema } from './schemas.js';

const ALICE = 'user_notifications_alice';
const BOB = 'user_notifications_bob';
const NOW = new Date('2024-06-15T12:00:00.000Z');
const BASE = Date.parse('2024-06-01T00:00:00.000Z');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => NOW } });
});
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  await t.db.delete(users);
  await insertUser(t.db, { id: ALICE });
  await insertUser(t.db, { id: BOB });
});

type Seed = { userId: string; minute: number; read?: boolean; id?: string; actionUrl?: string | null };

async function seed(rows: Seed[]) {
  return t.db
    .insert(notifications)
    .values(
      rows.map((row) => ({
        ...(row.id === undefined ? {} : { id: row.id }),
        userId: row.userId,
        title: `Title ${row.minute}`,
        message: `Message ${row.minute}`,
        type: 'info' as const,
        actionUrl: row.actionUrl ?? null,
        createdAt: new Date(BASE + row.minute * 60_000),
        readAt: row.read === true ? new Date(BASE + row.minute * 60_000 + 1000) : null,
      })),
    )
    .returning();
}

async function list(userId: string) {
  return t.app.inject({ method: 'GET', url: '/v1/notifications', headers: await authHeader(userId) });
}

async function patch(userId: string, url: string) {
  return t.app.inject({ method: 'PATCH', url, headers: await authHeader(userId) });
}

const MISSING = { challenge: 'Bearer', error: 'Authentication required' };
const INVALID = { challenge: 'Bearer error="invalid_token"', error: 'Invalid or expired access token' };

/** Authorization headers that must not get past authentication, with the challenge and message each gets. */
const refusedAuthorizations: [string, () => Promise<string | undefined>, typeof MISSING][] = [
  ['no token', async () => undefined, MISSING],
  ['a malformed token', async () => 'Bearer not.a.jwt', INVALID],
  // Expired by the app's clock (NOW), which judges exp.
  [
    'an expired token',
    async () => `Bearer ${await tokenFor(ALICE, { now: new Date(NOW.getTime() - 7_200_000), expiresIn: 3600 })}`,
    INVALID,
  ],
  [
    'a token signed with another secret',
    async () =>
      `Bearer ${await signAccessToken({ secret: 'another-signing-secret-of-32-characters', issuer: TEST_ISSUER, audience: TEST_AUDIENCE, subject: ALICE })}`,
    INVALID,
  ],
  [
    'a token whose signature was altered',
    async () => {
      const token = await tokenFor(ALICE);
      // Change the signature's first character (its last one may carry unused bits).
      const [header, payload, signature] = token.split('.');
      return `Bearer ${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    },
    INVALID,
  ],
];

async function patchWith(url: string, authorization: string | undefined) {
  return t.app.inject({ method: 'PATCH', url, headers: authorization === undefined ? {} : { authorization } });
}

/** 401 in the error envelope, with the request id and the Bearer challenge. */
function expectRefused(response: Awaited<ReturnType<typeof patchWith>>, expected: typeof MISSING) {
  expect(response.statusCode).toBe(401);
  expect(response.headers['www-authenticate']).toBe(expected.challenge);
  expect(response.json()).toEqual({
    success: false,
    error: expected.error,
    code: 'unauthorized',
    requestId: response.headers['x-request-id'],
  });
}

async function notificationRow(id: string) {
  const [row] = await t.db.select().from(notifications).where(eq(notifications.id, id));
  return row;
}

describe('GET /v1/notifications', () => {
  it('lists newest first with every field, ids breaking ties', async () => {
    const [older] = await seed([{ userId: ALICE, minute: 1, read: true, actionUrl: '/billing' }]);
    const tied = await seed([
      { userId: ALICE, minute: 2, id: '00000000-0000-4000-8000-000000000001' },
      { userId: ALICE, minute: 2, id: '00000000-0000-4000-8000-000000000002' },
    ]);
    const response = await list(ALICE);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    expect(body.data.unreadCount).toBe(2);
    expect(body.data.notifications.map((n: { id: string }) => n.id)).toEqual([
      '00000000-0000-4000-8000-000000000002',
      '00000000-0000-4000-8000-000000000001',
      older?.id,
    ]);
    expect(body.data.notifications[2]).toEqual({
      id: older?.id,
      title: 'Title 1',
      message: 'Message 1',
      type: 'info',
      isRead: true,
      createdAt: '2024-06-01T00:01:00.000Z',
      actionUrl: '/billing',
      organizationId: null,
    });
    expect(body.data.notifications[0]).toMatchObject({ isRead: false, actionUrl: null });
    expect(tied).toHaveLength(2);
  });

  it('names the organization a notification concerns', async () => {
    const organizationId = await insertOrganization(t.db, { members: [{ userId: ALICE }] });
    await t.db.insert(notifications).values({ userId: ALICE, organizationId, title: 'T', message: 'M', type: 'info' });
    const body = (await list(ALICE)).json();
    expect(body.data.notifications[0]).toMatchObject({ title: 'T', organizationId });
  });

  it('writes createdAt as Date#toISOString does: UTC, milliseconds, microseconds dropped', async () => {
    const [row] = await seed([{ userId: ALICE, minute: 3 }]);
    // 23:59:59.999 and 987 microseconds: rounding instead of truncating would move the day.
    await t.db.execute(
      sql`update notifications set created_at = '2024-12-31 23:59:59.999987+00' where id = ${row?.id}`,
    );
    const [stored] = await t.db
      .select()
      .from(notifications)
      .where(eq(notifications.id, row?.id ?? ''));
    const body = (await list(ALICE)).json();
    expect(body.data.notifications[0].createdAt).toBe('2024-12-31T23:59:59.999Z');
    expect(body.data.notifications[0].createdAt).toBe(stored?.createdAt.toISOString());
  });

  it('returns the 50 most recent and counts all unread, beyond the 50', async () => {
    await seed(Array.from({ length: 60 }, (_, minute) => ({ userId: ALICE, minute, read: minute % 10 === 0 })));
    const body = (await list(ALICE)).json();
    expect(body.data.notifications).toHaveLength(50);
    expect(body.data.notifications[0].title).toBe('Title 59');
    expect(body.data.notifications[49].title).toBe('Title 10');
    expect(body.data.unreadCount).toBe(54);
  });

  it("shows only the user's own notifications", async () => {
    await seed([
      { userId: ALICE, minute: 1 },
      { userId: BOB, minute: 2 },
    ]);
    const body = (await list(BOB)).json();
    expect(body.data.notifications.map((n: { title: string }) => n.title)).toEqual(['Title 2']);
    expect(body.data.unreadCount).toBe(1);
  });

  // PostgreSQL writes the list's JSON itself (service.ts): text that JSON must escape, and text beyond ASCII,
  // comes back exactly as stored, and the answer is what NotificationListSchema describes.
  it('returns stored text exactly, whatever JSON has to escape, in the documented shape', async () => {
    const title = 'Quote " backslash \\ slash / tab \t newline \n bell \u0007 del \u007f';
    const message = 'Jambo ✓ 😀 \u2028 \u2029 </script><b>x</b> {"a": [1]}';
    await t.db
      .insert(notifications)
      .values({ userId: ALICE, title, message, type: 'warning', actionUrl: '/a?b=c&d="e"' });
    const response = await list(ALICE);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = response.json();
    expect(body.data.notifications[0]).toMatchObject({ title, message, type: 'warning', actionUrl: '/a?b=c&d="e"' });
    if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (value) => !Number.isNaN(Date.parse(value)));
    expect([...Value.Errors(NotificationListSchema, [NotificationSchema], body)]).toEqual([]);
    expect(Object.keys(body)).toEqual(['success', 'data']);
  });

  it('returns an empty list for a user with none', async () => {
    expect((await list(ALICE)).json()).toEqual({ success: true, data: { notifications: [], unreadCount: 0 } });
  });
});

describe('PATCH /v1/notifications/:id/read', () => {
  it('marks the notification read', async () => {
    const [row] = await seed([{ userId: ALICE, minute: 1 }]);
    const response = await patch(ALICE, `/v1/notifications/${row?.id}/read`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    expect((await notificationRow(row!.id))?.readAt?.toISOString()).toBe(NOW.toISOString());
    expect((await list(ALICE)).json().data.unreadCount).toBe(0);
  });

  it('succeeds on an already read notification and keeps its first read time', async () => {
    const [row] = await seed([{ userId: ALICE, minute: 1, read: true }]);
    const firstReadAt = row?.readAt?.toISOString();
    const response = await patch(ALICE, `/v1/notifications/${row?.id}/read`);
    expect(response.statusCode).toBe(200);
    expect((await notificationRow(row!.id))?.readAt?.toISOString()).toBe(firstReadAt);
  });

  it.each([
    ['an unknown id', '3f9a1c1e-7a4b-4e8e-9d55-0d0f6f1d2c3b'],
    ['a malformed id', 'not-a-uuid'],
    ['read-all used as an id', 'read-all'],
  ])('answers 404 for %s', async (_label, id) => {
    const response = await patch(ALICE, `/v1/notifications/${id}/read`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, error: 'Notification not found', code: 'not_found' });
  });

  it("answers the same 404 for another user's notification and leaves it unread", async () => {
    const [bobs] = await seed([{ userId: BOB, minute: 1 }]);
    const response = await patch(ALICE, `/v1/notifications/${bobs?.id}/read`);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'Notification not found', code: 'not_found' });
    expect((await notificationRow(bobs!.id))?.readAt).toBeNull();
  });

  it.each(refusedAuthorizations)(
    'answers 401 for %s and leaves the notification unread',
    async (_label, authorization, expected) => {
      const [row] = await seed([{ userId: ALICE, minute: 1 }]);
      expectRefused(await patchWith(`/v1/notifications/${row?.id}/read`, await authorization()), expected);
      expect((await notificationRow(row!.id))?.readAt).toBeNull();
    },
  );
});

describe('PATCH /v1/notifications/read-all', () => {
  it("marks all of the user's unread notifications read and nobody else's", async () => {
    const [alreadyRead] = await seed([{ userId: ALICE, minute: 0, read: true }]);
    await seed([
      { userId: ALICE, minute: 1 },
      { userId: ALICE, minute: 2 },
      { userId: BOB, minute: 3 },
    ]);
    const response = await patch(ALICE, '/v1/notifications/read-all');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });

    const aliceUnread = await t.db
      .select()
      .from(notifications)
      .where(and(eq(notifications.userId, ALICE), isNull(notifications.readAt)));
    expect(aliceUnread).toHaveLength(0);
    expect((await notificationRow(alreadyRead!.id))?.readAt?.toISOString()).toBe(alreadyRead?.readAt?.toISOString());
    const bobs = await t.db.select().from(notifications).where(eq(notifications.userId, BOB));
    expect(bobs.map((n) => n.readAt)).toEqual([null]);
    expect((await list(BOB)).json().data.unreadCount).toBe(1);
  });

  it.each(refusedAuthorizations)(
    'answers 401 for %s and marks nothing read',
    async (_label, authorization, expected) => {
      await seed([
        { userId: ALICE, minute: 1 },
        { userId: ALICE, minute: 2 },
      ]);
      expectRefused(await patchWith('/v1/notifications/read-all', await authorization()), expected);
      const unread = await t.db
        .select()
        .from(notifications)
        .where(and(eq(notifications.userId, ALICE), isNull(notifications.readAt)));
      expect(unread).toHaveLength(2);
    },
  );

  it('succeeds when there is nothing to mark', async () => {
    const response = await patch(ALICE, '/v1/notifications/read-all');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
  });
});
