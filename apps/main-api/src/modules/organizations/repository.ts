import { type Database, type MembershipRole, preparedPerDatabase, prepareWithRowsMapper } from '@platform/db';
import { memberships, organizations } from '@platform/db/schema';
import { and, eq, sql } from 'drizzle-orm';

// Runs on every organization route: prepared once, so neither drizzle nor PostgreSQL plans it per request. A
// prepared statement runs on the database itself, never in a transaction.
const membershipOf = preparedPerDatabase((db) =>
  prepareWithRowsMapper(
    db,
    'organization_membership_of_user',
    db
      .select({ id: organizations.id, role: memberships.role })
      .from(memberships)
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .where(
        and(
          eq(memberships.userId, sql.placeholder('userId')),
          eq(memberships.organizationId, sql.placeholder('organizationId')),
        ),
      )
      .limit(1),
    ([cells]): { id: string; role: MembershipRole } | null =>
      cells === undefined ? null : { id: cells[0] as string, role: cells[1] as MembershipRole },
  ),
);

/** The organization and the user's role in it, or null when the organization does not exist or the user is not in it. */
export function findMembership(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<{ id: string; role: MembershipRole } | null> {
  return membershipOf(db).execute({ userId, organizationId });
}
