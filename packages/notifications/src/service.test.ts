import type { DatabaseHandle } from '@platform/db';
import { memberships, notifications, organizations, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notifyOrganizationMembers, notifyUser } from './service.js';

const TEAM = '5a1e7c3b-2d4f-4a6b-8c9d-0e1f2a3b4c01';
const EMPTY = '5a1e7c3b-2d4f-4a6b-8c9d-0e1f2a3b4c02';

describe('notifications', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.insert(users).values([
      { id: 'user_owner', email: 'owner@example.com' },
      { id: 'user_member', email: 'member@example.com' },
      { id: 'user_outsider', email: 'outsider@example.com' },
    ]);
    await handle.db.insert(organizations).values([
      { id: TEAM, name: 'Team' },
      { id: EMPTY, name: 'Empty' },
    ]);
    await handle.db.insert(memberships).values([
      { organizationId: TEAM, userId: 'user_owner', role: 'owner' },
      { organizationId: TEAM, userId: 'user_member' },
    ]);
  });
  afterAll(async () => {
    await handle.close();
  });

  const notificationsOf = (userId: string) =>
    handle.db.select().from(notifications).where(eq(notifications.userId, userId));

  it('notifyUser creates one unread notification with the given content', async () => {
    const { id } = await notifyUser(handle.db, {
      userId: 'user_outsider',
      title: 'Payment received',
      message: 'We received 1,000 KES.',
      type: 'success',
      actionUrl: '/billing',
    });
    const rows = await notificationsOf('user_outsider');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id,
      userId: 'user_outsider',
      organizationId: null,
      title: 'Payment received',
      message: 'We received 1,000 KES.',
      type: 'success',
      actionUrl: '/billing',
      readAt: null,
    });
    expect(rows[0]?.createdAt).toBeInstanceOf(Date);
  });

  it('notifyUser inside a transaction disappears with a rollback', async () => {
    const rollback = new Error('roll back');
    await expect(
      handle.db.transaction(async (tx) => {
        await notifyUser(tx, { userId: 'user_member', title: 'Draft', message: 'Never sent', type: 'info' });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await notificationsOf('user_member')).toHaveLength(0);
  });

  it('notifyOrganizationMembers notifies every member and nobody else', async () => {
    const count = await notifyOrganizationMembers(handle.db, TEAM, {
      title: 'Subscription renewed',
      message: 'Your Core plan renewed.',
      type: 'info',
    });
    expect(count).toBe(2);

    for (const userId of ['user_owner', 'user_member']) {
      const rows = await notificationsOf(userId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ organizationId: TEAM, title: 'Subscription renewed', actionUrl: null });
    }
    expect(await notificationsOf('user_outsider')).toHaveLength(1);
  });

  it('notifyOrganizationMembers creates nothing for an organization without members', async () => {
    const before = await handle.db.select().from(notifications);
    expect(await notifyOrganizationMembers(handle.db, EMPTY, { title: 'T', message: 'M', type: 'warning' })).toBe(0);
    expect(await handle.db.select().from(notifications)).toHaveLength(before.length);
  });
});
