import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.js';
import { membershipRoles } from './enums.js';
import { memberships, notifications, organizations, users } from './schema/index.js';
import { seedDemoData } from './seed.js';
import { createTestDatabase } from './testing.js';

async function rowCounts(handle: DatabaseHandle): Promise<Record<string, number>> {
  const count = sql<number>`count(*)::int`;
  const [u] = await handle.db.select({ n: count }).from(users);
  const [o] = await handle.db.select({ n: count }).from(organizations);
  const [m] = await handle.db.select({ n: count }).from(memberships);
  const [n] = await handle.db.select({ n: count }).from(notifications);
  return { users: u?.n ?? -1, organizations: o?.n ?? -1, memberships: m?.n ?? -1, notifications: n?.n ?? -1 };
}

describe('seedDemoData', () => {
  let handle: DatabaseHandle;
  const now = new Date('2026-03-01T12:00:00.000Z');

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('creates the demo user owning the demo organization and another user in another organization', async () => {
    const demo = await seedDemoData(handle.db, { now });
    expect(demo.userId).toBe('user_demo');
    expect(demo.otherUserId).toBe('user_other');
    expect(demo.organizationId).not.toBe(demo.otherOrganizationId);

    const [user] = await handle.db.select().from(users).where(eq(users.id, demo.userId));
    expect(user).toMatchObject({
      email: 'demo@example.com',
      firstName: 'Amina',
      lastName: 'Wanjiku',
      phone: '+254712345678',
      dob: '1992-04-18',
      kycStatus: 'unverified',
    });

    const demoMemberships = await handle.db.select().from(memberships).where(eq(memberships.userId, demo.userId));
    expect(demoMemberships).toEqual([expect.objectContaining({ organizationId: demo.organizationId, role: 'owner' })]);
    const otherMemberships = await handle.db.select().from(memberships).where(eq(memberships.userId, demo.otherUserId));
    expect(otherMemberships).toEqual([expect.objectContaining({ organizationId: demo.otherOrganizationId })]);
  });

  it('gives the demo organization one member per role, a user without an organization and one without a profile', async () => {
    const demo = await seedDemoData(handle.db, { now });
    expect(demo.roleUsers.owner).toEqual({ userId: 'user_demo', email: 'demo@example.com' });
    expect(demo.otherUser).toEqual({ userId: demo.otherUserId, email: 'other@example.com' });

    const team = await handle.db
      .select({
        userId: memberships.userId,
        role: memberships.role,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.organizationId, demo.organizationId));
    expect(team).toHaveLength(membershipRoles.length);
    for (const role of membershipRoles) {
      const person = demo.roleUsers[role];
      const member = team.find((row) => row.userId === person.userId);
      expect(member, role).toMatchObject({ role, email: person.email });
      expect(member?.firstName, role).toBeTruthy();
      expect(member?.lastName, role).toBeTruthy();
    }
    expect(demo.roleUsers).toMatchObject({
      admin: { userId: 'user_demo_admin', email: 'admin@example.com' },
      developer: { userId: 'user_demo_developer', email: 'developer@example.com' },
      billing: { userId: 'user_demo_billing', email: 'billing@example.com' },
      member: { userId: 'user_demo_member', email: 'member@example.com' },
    });

    expect(demo.newUser).toEqual({ userId: 'user_newcomer', email: 'newcomer@example.com' });
    const [newcomer] = await handle.db.select().from(users).where(eq(users.id, demo.newUser.userId));
    expect(newcomer).toMatchObject({ email: 'newcomer@example.com', firstName: 'Joseph', lastName: 'Kiprono' });
    expect(await handle.db.select().from(memberships).where(eq(memberships.userId, demo.newUser.userId))).toEqual([]);

    expect(demo.noProfileUser).toEqual({ userId: 'user_signup', email: 'signup@example.com' });
    expect(await handle.db.select().from(users).where(eq(users.id, demo.noProfileUser.userId))).toEqual([]);
    expect(await handle.db.select().from(users).where(eq(users.email, demo.noProfileUser.email))).toEqual([]);
  });

  it('gives the demo user read and unread notifications of mixed types, each opening a dashboard page', async () => {
    const rows = await handle.db.select().from(notifications).where(eq(notifications.userId, 'user_demo'));
    expect(rows.some((row) => row.readAt === null)).toBe(true);
    expect(rows.some((row) => row.readAt !== null)).toBe(true);
    expect(new Set(rows.map((row) => row.type)).size).toBeGreaterThan(1);
    expect(rows.filter((row) => !row.actionUrl?.startsWith('/dashboard/'))).toEqual([]);
    for (const row of rows) expect(row.createdAt.getTime()).toBeLessThan(now.getTime());
  });

  it('is idempotent: a second run adds nothing and keeps changes made since', async () => {
    await handle.db.update(users).set({ firstName: 'Amina Njeri' }).where(eq(users.id, 'user_demo'));
    await handle.db.update(memberships).set({ role: 'admin' }).where(eq(memberships.userId, 'user_demo_member'));
    const before = await rowCounts(handle);
    // The owner, the other user, six team members (the reviewer and finance among them) and the newcomer; the
    // signing-up user has no row.
    expect(before).toMatchObject({ users: 9, organizations: 2, memberships: 8 });

    const again = await seedDemoData(handle.db, { now: new Date(now.getTime() + 86_400_000) });

    expect(await rowCounts(handle)).toEqual(before);
    expect(again.userId).toBe('user_demo');
    const [user] = await handle.db.select().from(users).where(eq(users.id, 'user_demo'));
    expect(user?.firstName).toBe('Amina Njeri');
    const [changed] = await handle.db.select().from(memberships).where(eq(memberships.userId, 'user_demo_member'));
    expect(changed?.role).toBe('admin');
  });
});
