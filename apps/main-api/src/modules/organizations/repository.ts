import {
  type Database,
  type DatabaseExecutor,
  type MembershipRole,
  preparedPerDatabase,
  prepareWithRowsMapper,
  type Transaction,
} from '@platform/db';
import { memberships } from '@platform/db/schema/memberships';
import { organizations } from '@platform/db/schema/organizations';
import { and, asc, desc, eq, isNull, sql } from 'drizzle-orm';
import { userProfileOf } from '../accounts/index.js';

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

/** An organization as one of its members sees it. */
export interface OrganizationRow extends OrganizationProfile {
  id: string;
  role: MembershipRole;
  createdAt: Date;
}

/** What a member reads and an owner sets: the organization's name and its billing particulars. */
export interface OrganizationProfile {
  name: string;
  kraPin: string | null;
  address: string | null;
  billingEmail: string | null;
}

const profileColumns = {
  name: organizations.name,
  kraPin: organizations.kraPin,
  address: organizations.address,
  billingEmail: organizations.billingEmail,
};

const organizationOfMember = {
  id: organizations.id,
  ...profileColumns,
  role: memberships.role,
  createdAt: organizations.createdAt,
};

export async function insertOrganization(
  db: DatabaseExecutor,
  values: OrganizationProfile,
): Promise<OrganizationProfile & { id: string; createdAt: Date }> {
  const [row] = await db
    .insert(organizations)
    .values(values)
    .returning({
      id: organizations.id,
      ...profileColumns,
      createdAt: organizations.createdAt,
    });
  if (row === undefined) throw new Error('Inserting the organization returned no row');
  return row;
}

export async function insertMembership(
  db: DatabaseExecutor,
  values: { organizationId: string; userId: string; role: MembershipRole },
): Promise<void> {
  await db.insert(memberships).values(values);
}

/** The organizations the user is a member of, newest first; retired ones have no members, and are left out too. */
export function listOrganizationsOf(db: DatabaseExecutor, userId: string): Promise<OrganizationRow[]> {
  return db
    .select(organizationOfMember)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), isNull(organizations.retiredAt)))
    .orderBy(desc(organizations.createdAt), desc(organizations.id));
}

// Every dashboard page asks it (the page guard, docs/benchmarks.md#the-verifications-page-get-dashboardverifications-3-dec):
// prepared once per database, only what the switcher and the role check read, the rows read by position.
const membershipsOfUser = preparedPerDatabase((db) =>
  prepareWithRowsMapper(
    db,
    'organization_memberships_of_user',
    db
      .select({ id: organizations.id, name: organizations.name, role: memberships.role })
      .from(memberships)
      .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
      .where(and(eq(memberships.userId, sql.placeholder('userId')), isNull(organizations.retiredAt)))
      .orderBy(desc(organizations.createdAt), desc(organizations.id)),
    (rows): OrganizationMembership[] =>
      rows.map((cells) => ({ id: cells[0] as string, name: cells[1] as string, role: cells[2] as MembershipRole })),
  ),
);

/** An organization the user belongs to, named, with the user's role in it. */
export interface OrganizationMembership {
  id: string;
  name: string;
  role: MembershipRole;
}

/** The organizations the user is a member of as `listOrganizationsOf` orders them, with their names and roles only. */
export function findMembershipsOf(db: Database, userId: string): Promise<OrganizationMembership[]> {
  return membershipsOfUser(db).execute({ userId });
}

export async function findOrganizationOf(
  db: DatabaseExecutor,
  userId: string,
  organizationId: string,
): Promise<OrganizationRow | undefined> {
  const [row] = await db
    .select(organizationOfMember)
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)));
  return row;
}

/** The organization's row, locked until the transaction ends; undefined when it does not exist. */
export async function lockOrganization(
  tx: Transaction,
  organizationId: string,
): Promise<(OrganizationProfile & { id: string; retiredAt: Date | null }) | undefined> {
  const [row] = await tx
    .select({ id: organizations.id, ...profileColumns, retiredAt: organizations.retiredAt })
    .from(organizations)
    .where(eq(organizations.id, organizationId))
    .for('update');
  return row;
}

export async function updateOrganizationRow(
  db: DatabaseExecutor,
  organizationId: string,
  changes: Partial<OrganizationProfile>,
): Promise<void> {
  await db.update(organizations).set(changes).where(eq(organizations.id, organizationId));
}

/** Sets the organization's own verification retention period (null: the platform's default). */
export async function updateVerificationRetentionDays(
  db: DatabaseExecutor,
  organizationId: string,
  days: number | null,
): Promise<void> {
  await db.update(organizations).set({ verificationRetentionDays: days }).where(eq(organizations.id, organizationId));
}

/** Deletes the organization with everything it owns (the foreign keys cascade); not its audit log. */
export async function deleteOrganizationRow(db: DatabaseExecutor, organizationId: string): Promise<void> {
  await db.delete(organizations).where(eq(organizations.id, organizationId));
}

export async function markOrganizationRetired(db: DatabaseExecutor, organizationId: string, now: Date): Promise<void> {
  await db.update(organizations).set({ retiredAt: now }).where(eq(organizations.id, organizationId));
}

/** Removes every membership of the organization; how many. */
export async function deleteMembershipsOf(db: DatabaseExecutor, organizationId: string): Promise<number> {
  const removed = await db
    .delete(memberships)
    .where(eq(memberships.organizationId, organizationId))
    .returning({ userId: memberships.userId });
  return removed.length;
}

/** A member with the profile fields the member list shows. */
export interface MemberRow {
  userId: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: MembershipRole;
  joinedAt: Date;
}

const memberColumns = {
  userId: memberships.userId,
  ...userProfileOf(memberships.userId),
  role: memberships.role,
  joinedAt: memberships.createdAt,
};

/** The organization's members, first joined first. */
export function listMembers(db: DatabaseExecutor, organizationId: string): Promise<MemberRow[]> {
  return db
    .select(memberColumns)
    .from(memberships)
    .where(eq(memberships.organizationId, organizationId))
    .orderBy(asc(memberships.createdAt), asc(memberships.userId));
}

export async function findMember(
  db: DatabaseExecutor,
  organizationId: string,
  userId: string,
): Promise<MemberRow | undefined> {
  const [row] = await db
    .select(memberColumns)
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row;
}

/**
 * Locks the organization's owner memberships until the transaction ends and returns the owners' user ids
 * (docs/decisions.md#always-one-owner). A transaction that waited for another's lock reads the rows again once
 * it gets them, so an owner demoted meanwhile is no longer counted.
 */
export async function lockOwners(tx: Transaction, organizationId: string): Promise<string[]> {
  const rows = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'owner')))
    .orderBy(asc(memberships.userId))
    .for('update');
  return rows.map((row) => row.userId);
}

/** The member's role, with the membership locked until the transaction ends; undefined when not a member. */
export async function lockMembership(
  tx: Transaction,
  organizationId: string,
  userId: string,
): Promise<MembershipRole | undefined> {
  const [row] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .for('update');
  return row?.role;
}

export async function updateMemberRole(
  db: DatabaseExecutor,
  organizationId: string,
  userId: string,
  role: MembershipRole,
): Promise<void> {
  await db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}

export async function deleteMembership(db: DatabaseExecutor, organizationId: string, userId: string): Promise<void> {
  await db
    .delete(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
}
