import { type DatabaseExecutor, databaseErrorOf, type MembershipRole } from '@platform/db';
import { memberships } from '@platform/db/schema/memberships';
import { organizationInvitations } from '@platform/db/schema/organization-invitations';
import { organizations } from '@platform/db/schema/organizations';
import { and, asc, desc, eq, gt, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { userEmailOf } from '../accounts/index.js';

// Every statement of invitations, which the invitations module runs through this module's index.ts: an invitation
// is a pending member of the organization, so its rows are the organizations module's, as its members' are
// (docs/decisions.md#one-owner-per-table). Addresses are compared with lower() in SQL on both sides, as the
// one-pending index does, so the database and this code agree on "the same address".

const ONE_PENDING_INDEX = 'organization_invitations_one_pending_idx';

const sameAddress = (column: SQL | typeof organizationInvitations.email, email: string) =>
  sql`lower(${column}) = lower(${email})`;

/** The organization's name, or undefined when it is unknown or retired. */
export async function findActiveOrganizationName(db: DatabaseExecutor, organizationId: string) {
  const [organization] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(and(eq(organizations.id, organizationId), sql`${organizations.retiredAt} is null`));
  return organization?.name;
}

/** Whether a member of the organization has a profile with this address (case-insensitive). */
export async function isMemberAddress(db: DatabaseExecutor, organizationId: string, email: string): Promise<boolean> {
  const [member] = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), sameAddress(userEmailOf(memberships.userId), email)))
    .limit(1);
  return member !== undefined;
}

/**
 * Closes, as revoked, the organization's pending invitation of this address whose time ran out, so that a new one
 * may take its place under the one-pending index. Its id, or undefined when there was none.
 */
export async function closeExpiredPendingInvitation(
  db: DatabaseExecutor,
  organizationId: string,
  email: string,
  now: Date,
): Promise<string | undefined> {
  const [closed] = await db
    .update(organizationInvitations)
    .set({ status: 'revoked', closedAt: now })
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        sameAddress(organizationInvitations.email, email),
        eq(organizationInvitations.status, 'pending'),
        lte(organizationInvitations.expiresAt, now),
      ),
    )
    .returning({ id: organizationInvitations.id });
  return closed?.id;
}

/**
 * Inserts a pending invitation; `'pending-exists'` when the one-pending index refuses it (another pending
 * invitation of the address, perhaps committed a moment ago by a concurrent request).
 */
export async function insertInvitation(
  db: DatabaseExecutor,
  values: {
    organizationId: string;
    email: string;
    role: MembershipRole;
    invitedBy: string;
    createdAt: Date;
    expiresAt: Date;
  },
) {
  try {
    const [invitation] = await db.insert(organizationInvitations).values(values).returning();
    if (invitation === undefined) throw new Error('The invitation insert returned no row');
    return invitation;
  } catch (error) {
    const failure = databaseErrorOf(error);
    if (failure?.code === '23505' && failure.constraint === ONE_PENDING_INDEX) return 'pending-exists' as const;
    throw error;
  }
}

/** The organization's invitations, newest first. */
export function findOrganizationInvitations(db: DatabaseExecutor, organizationId: string) {
  return db
    .select()
    .from(organizationInvitations)
    .where(eq(organizationInvitations.organizationId, organizationId))
    .orderBy(desc(organizationInvitations.createdAt), desc(organizationInvitations.id));
}

/**
 * The pending invitations addressed to `email` (case-insensitive) that can still be accepted: not expired at `now`,
 * of an organization not retired; with the organization's name, the oldest first.
 */
export function findPendingInvitationsTo(db: DatabaseExecutor, email: string, now: Date) {
  return db
    .select({
      id: organizationInvitations.id,
      organizationId: organizationInvitations.organizationId,
      organizationName: organizations.name,
      role: organizationInvitations.role,
      expiresAt: organizationInvitations.expiresAt,
    })
    .from(organizationInvitations)
    .innerJoin(organizations, eq(organizations.id, organizationInvitations.organizationId))
    .where(
      and(
        sameAddress(organizationInvitations.email, email),
        eq(organizationInvitations.status, 'pending'),
        gt(organizationInvitations.expiresAt, now),
        isNull(organizations.retiredAt),
      ),
    )
    .orderBy(asc(organizationInvitations.createdAt), asc(organizationInvitations.id));
}

/** One of the organization's invitations, locked until the transaction ends. */
export async function lockOrganizationInvitation(db: DatabaseExecutor, organizationId: string, invitationId: string) {
  const [invitation] = await db
    .select()
    .from(organizationInvitations)
    .where(
      and(eq(organizationInvitations.id, invitationId), eq(organizationInvitations.organizationId, organizationId)),
    )
    .for('update');
  return invitation;
}

/**
 * The invitation addressed to `email` (case-insensitive), locked until the transaction ends, so that of two
 * accepts at once the second reads it after the first closed it. Undefined for another address.
 */
export async function lockInvitationFor(db: DatabaseExecutor, invitationId: string, email: string) {
  const [invitation] = await db
    .select()
    .from(organizationInvitations)
    .where(and(eq(organizationInvitations.id, invitationId), sameAddress(organizationInvitations.email, email)))
    .for('update');
  return invitation;
}

/**
 * One invitation by its id, whoever it is for, with whether it is addressed to `email` (compared as
 * `lockInvitationFor` does); undefined for an unknown id. Not locked: for showing it to its invitee.
 */
export async function findInvitationAddressedTo(db: DatabaseExecutor, invitationId: string, email: string) {
  const [found] = await db
    .select({ invitation: organizationInvitations, addressed: sameAddress(organizationInvitations.email, email) })
    .from(organizationInvitations)
    .where(eq(organizationInvitations.id, invitationId));
  return found === undefined ? undefined : { ...found.invitation, addressed: found.addressed === true };
}

/** Closes an invitation: accepted by a user, or revoked. */
export async function closeInvitation(
  db: DatabaseExecutor,
  invitationId: string,
  change: { status: 'accepted'; acceptedBy: string; closedAt: Date } | { status: 'revoked'; closedAt: Date },
) {
  const [invitation] = await db
    .update(organizationInvitations)
    .set(change)
    .where(eq(organizationInvitations.id, invitationId))
    .returning();
  if (invitation === undefined) throw new Error('The invitation to close was not found');
  return invitation;
}

/** Gives a pending invitation a new expiry (a resend: docs/decisions.md#invitations). */
export async function renewInvitation(db: DatabaseExecutor, invitationId: string, expiresAt: Date) {
  const [invitation] = await db
    .update(organizationInvitations)
    .set({ expiresAt })
    .where(and(eq(organizationInvitations.id, invitationId), eq(organizationInvitations.status, 'pending')))
    .returning();
  if (invitation === undefined) throw new Error('The invitation to renew was not found');
  return invitation;
}

/** Adds the user to the organization in `role`; undefined when the user is a member already. */
export async function insertMembershipIfAbsent(
  db: DatabaseExecutor,
  values: { organizationId: string; userId: string; role: MembershipRole; createdAt: Date },
) {
  const [membership] = await db
    .insert(memberships)
    .values(values)
    .onConflictDoNothing({ target: [memberships.organizationId, memberships.userId] })
    .returning();
  return membership;
}

/** Revokes the organization's pending invitations; how many. */
export async function revokePendingInvitations(
  db: DatabaseExecutor,
  organizationId: string,
  now: Date,
): Promise<number> {
  const revoked = await db
    .update(organizationInvitations)
    .set({ status: 'revoked', closedAt: now })
    .where(
      and(eq(organizationInvitations.organizationId, organizationId), eq(organizationInvitations.status, 'pending')),
    )
    .returning({ id: organizationInvitations.id });
  return revoked.length;
}
