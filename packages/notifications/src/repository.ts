import { type DatabaseExecutor, type NewNotification, queryRows, type UnitOfWork } from '@platform/db';
import { notifications } from '@platform/db/schema/notifications';
import { membersOf } from '@platform/organizations';
import { type SQL, sql } from 'drizzle-orm';

// Every statement of creating notifications. The functions take the executor first.

export async function insertNotification(
  db: DatabaseExecutor,
  row: NewNotification,
): Promise<{ id: string } | undefined> {
  const [inserted] = await db.insert(notifications).values(row).returning({ id: notifications.id });
  return inserted;
}

type MemberNotification = Pick<NewNotification, 'title' | 'message' | 'type' | 'actionUrl'>;

/**
 * The insert of one notification for each member of the organization at that moment, in one statement: a member
 * list read and the rows written together. Returns their ids.
 */
function memberNotificationsInsert(organizationId: string, content: MemberNotification): SQL {
  return sql`insert into ${notifications} (user_id, organization_id, title, message, type, action_url)
    select member.user_id, ${organizationId}::uuid, ${content.title}::text, ${content.message}::text,
      ${content.type}::text, ${content.actionUrl ?? null}::text
    from (${membersOf(organizationId)}) as member
    returning id`;
}

/** Inserts one notification for each member of the organization, in one statement; how many. */
export async function insertMemberNotifications(
  db: DatabaseExecutor,
  organizationId: string,
  content: MemberNotification,
): Promise<number> {
  return (await queryRows(db, memberNotificationsInsert(organizationId, content))).length;
}

/** Adds the members' notifications to the unit of work, sent at its commit. */
export function addMemberNotifications(work: UnitOfWork, organizationId: string, content: MemberNotification): void {
  work.write(memberNotificationsInsert(organizationId, content));
}

/**
 * A part of a unit's commit statement (docs/decisions.md#a-unit-of-work) that inserts one notification for each row
 * of the earlier part `recipients` (its `user_id` and `organization_id` columns): nothing when that part is empty.
 */
export function notificationsPart(recipients: string, content: MemberNotification): SQL {
  return sql`insert into ${notifications} (user_id, organization_id, title, message, type, action_url)
    select recipient.user_id, recipient.organization_id, ${content.title}::text, ${content.message}::text,
      ${content.type}::text, ${content.actionUrl ?? null}::text
    from ${sql.identifier(recipients)} as recipient
    returning id`;
}
