import { type Database, type DatabaseExecutor, preparedPerDatabase, prepareWithRowsMapper } from '@platform/db';
import { notifications } from '@platform/db/schema/notifications';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';

/** How many notifications the list returns (spec section 8). */
const NOTIFICATION_LIST_LIMIT = 50;

// The whole answer's `data` in one statement, as JSON text built by PostgreSQL: the newest notifications in
// the answer's shape and the user's unread count (an uncorrelated subquery, run once). Parsing 50 rows in the
// driver and serializing them again cost more CPU than everything else the request does
// (docs/benchmarks.md#a-full-page-of-notifications-get-v1notifications); this way the route splices the text
// into the answer untouched. Keys and formats follow NotificationListSchema: `to_char` with MS truncates to the
// millisecond, as Date#toISOString does. Prepared once per database, so it runs on the database itself, never in a
// transaction.
const recentOfUserAsJson = preparedPerDatabase((db) => {
  const newest = db
    .select({
      id: notifications.id,
      title: notifications.title,
      message: notifications.message,
      type: notifications.type,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
      actionUrl: notifications.actionUrl,
      organizationId: notifications.organizationId,
    })
    .from(notifications)
    .where(eq(notifications.userId, sql.placeholder('userId')))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(NOTIFICATION_LIST_LIMIT)
    .as('newest');
  return prepareWithRowsMapper(
    db,
    'notifications_recent_of_user_json',
    db
      .select({
        data: sql<string>`json_build_object(
          'notifications', coalesce(json_agg(json_build_object(
            'id', ${newest.id}, 'title', ${newest.title}, 'message', ${newest.message}, 'type', ${newest.type},
            'isRead', ${newest.readAt} is not null,
            'createdAt', to_char(${newest.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
            'actionUrl', ${newest.actionUrl}, 'organizationId', ${newest.organizationId}
          ) order by ${newest.createdAt} desc, ${newest.id} desc), '[]'),
          'unreadCount', (select count(*)::int from ${notifications} where ${notifications.userId} = ${sql.placeholder('userId')} and ${notifications.readAt} is null)
        )::text`,
      })
      .from(newest),
    (rows) => rows[0]?.[0] as string,
  );
});

/** The JSON text of the list answer's `data` (NotificationListSchema) for the user. */
export function recentNotificationsJsonOf(db: Database, userId: string): Promise<string> {
  return recentOfUserAsJson(db).execute({ userId });
}

/** Sets `readAt` unless already set. False when the user has no notification with that id. */
export async function setNotificationRead(
  db: DatabaseExecutor,
  userId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  const updated = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return updated.length > 0;
}

// Every dashboard page counts them in its header: prepared once per database, read by position.
const unreadCountOfUser = preparedPerDatabase((db) =>
  prepareWithRowsMapper(
    db,
    'notifications_unread_count_of_user',
    db
      .select({ count: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.userId, sql.placeholder('userId')), isNull(notifications.readAt))),
    (rows) => Number(rows[0]?.[0] ?? 0),
  ),
);

/** How many of the user's notifications are unread. */
export function countUnreadOf(db: Database, userId: string): Promise<number> {
  return unreadCountOfUser(db).execute({ userId });
}

/** Sets `readAt` on every unread notification of the user, in one statement. */
export async function setAllNotificationsRead(db: DatabaseExecutor, userId: string, now: Date): Promise<void> {
  await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
