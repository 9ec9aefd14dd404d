import type { DatabaseExecutor, NotificationType, UnitOfWork } from '@platform/db';
import { addMemberNotifications, insertMemberNotifications, insertNotification } from './repository.js';

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
 * notifyOrganizationMembers in a unit of work (docs/decisions.md#a-unit-of-work): the insert is added to the change's
 * unit and sent with its other writes at commit, so it costs no statement of its own.
 */
export function addOrganizationMembersNotification(
  work: UnitOfWork,
  organizationId: string,
  content: NotificationContent,
): void {
  addMemberNotifications(work, organizationId, content);
}
