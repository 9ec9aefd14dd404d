import { type Database, isUuid } from '@platform/db';
import {
  countUnreadOf,
  recentNotificationsJsonOf,
  setAllNotificationsRead,
  setNotificationRead,
} from './repository.js';

/**
 * The user's newest notifications and the count of all their unread ones, not only those listed
 * (docs/decisions.md#unread-count), as the JSON text of the list answer's `data` (NotificationListSchema), built by
 * PostgreSQL (see the repository).
 */
export function listRecentNotificationsJson(db: Database, userId: string): Promise<string> {
  return recentNotificationsJsonOf(db, userId);
}

/**
 * Marks one of the user's notifications read (docs/decisions.md#marking-a-notification-read). An already read one
 * keeps its original read time. Returns false when the user has no notification with that id (including ids that
 * are not UUIDs at all).
 */
export async function markNotificationRead(db: Database, userId: string, id: string, now: Date): Promise<boolean> {
  if (!isUuid(id)) return false;
  return setNotificationRead(db, userId, id, now);
}

/** How many of the user's notifications are unread: the dashboard header's count (docs/decisions.md#unread-count). */
export function countUnreadNotifications(db: Database, userId: string): Promise<number> {
  return countUnreadOf(db, userId);
}

/** Marks every unread notification of the user read. */
export function markAllNotificationsRead(db: Database, userId: string, now: Date): Promise<void> {
  return setAllNotificationsRead(db, userId, now);
}
