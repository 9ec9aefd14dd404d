import { type Database, notifications } from '@platform/db';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { preparedPerDatabase, prepareWithRowsMapper } from '../../prepared-queries.js';
import type { NotificationView } from './schemas.js';

/** How many notifications the list returns (spec section 8). */
export const NOTIFICATION_LIST_LIMIT = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// One statement answers the whole list: the newest notifications, each row carrying the user's unread count
// (an uncorrelated subquery, run once per statement). A user without notifications gets no row and has none
// unread. The rows come out of PostgreSQL in the answer's shape and are turned into objects by position:
// turning each timestamp into a Date and back into ISO text, and drizzle's generic per-cell mapping, took more
// CPU than the query itself (docs/benchmarks.md). `to_char` with MS truncates to the millisecond, as
// Date#toISOString does.
const recentOfUser = preparedPerDatabase((db) =>
  prepareWithRowsMapper(
    db,
    'notifications_recent_of_user',
    db
      .select({
        id: notifications.id,
        title: notifications.title,
        message: notifications.message,
        type: notifications.type,
        isRead: sql<boolean>`${notifications.readAt} is not null`,
        createdAt: sql<string>`to_char(${notifications.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
        actionUrl: notifications.actionUrl,
        unreadCount: sql<number>`(select count(*)::int from ${notifications} where ${notifications.userId} = ${sql.placeholder('userId')} and ${notifications.readAt} is null)`,
      })
      .from(notifications)
      .where(eq(notifications.userId, sql.placeholder('userId')))
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(NOTIFICATION_LIST_LIMIT),
    (rows): { notifications: NotificationView[]; unreadCount: number } => ({
      notifications: rows.map((cells) => ({
        id: cells[0] as string,
        title: cells[1] as string,
        message: cells[2] as string,
        type: cells[3] as NotificationView['type'],
        isRead: cells[4] as boolean,
        createdAt: cells[5] as string,
        actionUrl: cells[6] as string | null,
      })),
      unreadCount: (rows[0]?.[7] as number | undefined) ?? 0,
    }),
  ),
);

/** The user's newest notifications and the count of all their unread ones (not only those listed). */
export function listRecentNotifications(
  db: Database,
  userId: string,
): Promise<{ notifications: NotificationView[]; unreadCount: number }> {
  return recentOfUser(db).execute({ userId });
}

/**
 * Marks one of the user's notifications read. An already read one keeps its original read time. Returns
 * false when the user has no notification with that id (including ids that are not UUIDs at all).
 */
export async function markNotificationRead(db: Database, userId: string, id: string, now: Date): Promise<boolean> {
  if (!UUID.test(id)) return false;
  const updated = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return updated.length > 0;
}

/** Marks every unread notification of the user read, in one statement. */
export async function markAllNotificationsRead(db: Database, userId: string, now: Date): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
