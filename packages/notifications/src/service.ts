import type { DatabaseExecutor, NotificationType, RiderCondition, RidingStatement } from '@platform/db';
import { insertMemberNotifications, insertMemberNotificationsStatement, insertNotification } from './repository.js';

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

/** Notifies every member of an organization (one notification each, one statement). Returns how many were created. */
export async function notifyOrganizationMembers(
  db: DatabaseExecutor,
  organizationId: string,
  content: NotificationContent,
): Promise<number> {
  return insertMemberNotifications(db, organizationId, content);
}

/**
 * notifyOrganizationMembers as a rider (docs/decisions.md#statements-per-request): the insert, to send inside a
 * statement of the transaction of the event, so it costs no statement of its own; with `onlyIf`, only when that
 * condition of the carrying statement holds.
 */
export function organizationMembersNotificationRider(
  organizationId: string,
  content: NotificationContent,
  onlyIf?: RiderCondition,
): RidingStatement {
  return { statement: insertMemberNotificationsStatement(organizationId, content, onlyIf) };
}
