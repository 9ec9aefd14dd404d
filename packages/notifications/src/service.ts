import type { DatabaseExecutor, NotificationType } from '@platform/db';
import { insertNotification, insertNotifications, memberUserIds } from './repository.js';

export interface NotificationContent {
  title: string;
  message: string;
  type: NotificationType;
  actionUrl?: string | null;
}

export interface NotifyUserInput extends NotificationContent {
  userId: string;
  organizationId?: string | null;
}

/** Creates one in-app notification. Pass the transaction when the event that causes it is in one. */
export async function notifyUser(db: DatabaseExecutor, input: NotifyUserInput): Promise<{ id: string }> {
  const row = await insertNotification(db, {
    userId: input.userId,
    organizationId: input.organizationId ?? null,
    title: input.title,
    message: input.message,
    type: input.type,
    actionUrl: input.actionUrl ?? null,
  });
  if (row === undefined) throw new Error('Inserting the notification returned no row');
  return row;
}

/** Notifies every member of an organization (one notification each). Returns how many were created. */
export async function notifyOrganizationMembers(
  db: DatabaseExecutor,
  organizationId: string,
  content: NotificationContent,
): Promise<number> {
  const members = await memberUserIds(db, organizationId);
  if (members.length === 0) return 0;
  const created = await insertNotifications(
    db,
    members.map((userId) => ({
      userId,
      organizationId,
      title: content.title,
      message: content.message,
      type: content.type,
      actionUrl: content.actionUrl ?? null,
    })),
  );
  return created.length;
}
