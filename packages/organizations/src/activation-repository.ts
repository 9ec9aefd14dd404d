import type { DatabaseExecutor, Transaction } from '@platform/db';
import { auditEvents } from '@platform/db/schema/audit-events';
import { memberships } from '@platform/db/schema/memberships';
import { organizations } from '@platform/db/schema/organizations';
import { eq, type SQL, sql } from 'drizzle-orm';

// An organization's activation (docs/decisions.md#going-live): what main-api's activation module reads and locks, and
// the parts of the statement that activates it, which a verification decision in either service (the platform's
// KYB session verified) or an operator runs. The audit record is written here, in the same statement: audit-events
// is published in this package for it (packages/db/table-owners.cjs).

export interface OrganizationActivation {
  name: string;
  kraPin: string | null;
  activatedAt: Date | null;
  activationSessionId: string | null;
  retiredAt: Date | null;
}

const activationColumns = {
  name: organizations.name,
  kraPin: organizations.kraPin,
  activatedAt: organizations.activatedAt,
  activationSessionId: organizations.activationSessionId,
  retiredAt: organizations.retiredAt,
};

/** The organization's activation state, or undefined when there is no such organization. */
export async function findOrganizationActivation(
  db: DatabaseExecutor,
  organizationId: string,
): Promise<OrganizationActivation | undefined> {
  const [row] = await db.select(activationColumns).from(organizations).where(eq(organizations.id, organizationId));
  return row;
}

/**
 * The same, with the row locked (FOR NO KEY UPDATE) until the transaction ends: two starts of an activation wait for
 * each other, so one session is opened.
 */
export async function lockOrganizationActivation(
  tx: Transaction,
  organizationId: string,
): Promise<OrganizationActivation | undefined> {
  const [row] = await tx
    .select(activationColumns)
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('no key update');
  return row;
}

/** Names the session that activates the organization when verified (the row is locked by the caller). */
export async function setActivationSession(tx: Transaction, organizationId: string, sessionId: string): Promise<void> {
  await tx.update(organizations).set({ activationSessionId: sessionId }).where(eq(organizations.id, organizationId));
}

/** What an activation is found by: its verified session, or the organization an operator names. */
export type ActivationCause = { sessionId: string } | { organizationId: string; operator: string };

/** The part names the activation parts answer in: the activated organization, and its owners at that moment. */
export const ACTIVATED_PART = 'activated_organization';
export const ACTIVATED_OWNERS_PART = 'activated_organization_owners';

/**
 * The parts of a unit's commit statement that activate an organization, once: `activated_organization` sets
 * activated_at on the organization the cause names when it is not activated yet (and not retired), returning its
 * `id` and `name`; `activated_organization_audit` records `organization.activated` for it; and
 * `activated_organization_owners` selects its owners (`user_id`, `organization_id`, `name`), for a notification
 * part to read. When the organization is activated already, every part is empty.
 */
export function organizationActivationParts(
  cause: ActivationCause,
  { now, actor }: { now: Date; actor: string },
): Array<readonly [string, SQL]> {
  const which =
    'sessionId' in cause
      ? sql`${organizations.activationSessionId} = ${cause.sessionId}::uuid`
      : sql`${organizations.id} = ${cause.organizationId}::uuid`;
  const details =
    'sessionId' in cause
      ? sql`jsonb_build_object('sessionId', ${cause.sessionId}::text, 'decidedBy', ${actor}::text)`
      : sql`jsonb_build_object('operator', ${cause.operator}::text)`;
  return [
    [
      ACTIVATED_PART,
      sql`update ${organizations} set activated_at = ${now.toISOString()}::timestamptz
        where ${which} and ${organizations.activatedAt} is null and ${organizations.retiredAt} is null
        returning id, name`,
    ],
    [
      'activated_organization_audit',
      sql`insert into ${auditEvents} (organization_id, actor_user_id, action, target_type, target_id, details,
          created_at)
        select id, null, 'organization.activated', 'organization', id::text, ${details},
          ${now.toISOString()}::timestamptz
        from ${sql.identifier(ACTIVATED_PART)}
        returning id`,
    ],
    [
      ACTIVATED_OWNERS_PART,
      sql`select ${memberships.userId} as user_id, activated.id as organization_id, activated.name as name
        from ${memberships} join ${sql.identifier(ACTIVATED_PART)} as activated
          on ${memberships.organizationId} = activated.id
        where ${memberships.role} = 'owner'`,
    ],
  ];
}
