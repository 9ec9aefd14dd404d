import type { DatabaseExecutor, NewNotification } from '@platform/db';
import { memberships, notifications } from '@platform/db/schema';
import { eq } from 'drizzle-orm';

// Every statement of creating notifications. The functions take the executor first.

export async function insertNotification(
  db: DatabaseExecutor,
  row: NewNotification,
): Promise<{ id: string } | undefined> {
  const [inserted] = await db.insert(notifications).values(row).returning({ id: notifications.id });
  return inserted;
}

/** Inserts several notifications in one statement; their ids. */
export function insertNotifications(db: DatabaseExecutor, rows: NewNotification[]): Promise<Array<{ id: string }>> {
  return db.insert(notifications).values(rows).returning({ id: notifications.id });
}

/** The user ids of the organization's members. */
export async function memberUserIds(db: DatabaseExecutor, organizationId: string): Promise<string[]> {
  const members = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.organizationId, organizationId));
  return members.map(({ userId }) => userId);
}
