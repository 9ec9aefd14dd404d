import { revokeOrganizationApiKeys } from '@platform/api-keys';
import { apiKeyEnvironments, type Database, type MembershipRole, type Transaction } from '@platform/db';
import { conflict, forbidden, invalidFields, notFound } from '@platform/errors';
import { ensureWallet, hasLedgerHistory } from '@platform/ledger';
import { notifyUser } from '@platform/notifications';
import { ensureWebhookEndpoint, setDefaultWebhookUrl } from '@platform/webhooks';
import { userExists } from '../accounts/index.js';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import { type BillingRetirement, endBillingOfRetiredOrganization, hasBillingHistory } from '../billing/index.js';
import { endConsoleSessionsInTransaction } from '../console-sessions/index.js';
import { revokePendingInvitations } from './invitations-repository.js';
import { normaliseOrganizationFields, type OrganizationFields } from './organization-fields.js';
import { allows, assertRoleGivenIn, permissionToChangeMember, refusalMessage } from './policy.js';
import {
  deleteMembership,
  deleteMembershipsOf,
  deleteOrganizationRow,
  findMember,
  findMembership,
  findMembershipsOf,
  findOrganizationOf,
  insertMembership,
  insertOrganization,
  listMembers,
  listOrganizationsOf,
  lockMembership,
  lockOrganization,
  lockOwners,
  type MemberRow,
  markOrganizationRetired,
  type OrganizationMembership,
  type OrganizationRow,
  updateMemberRole,
  updateOrganizationRow,
} from './repository.js';

/** The organization a request acts for, after its membership was checked. */
export interface OrganizationAccess {
  id: string;
  /** The user's role in it. */
  role: MembershipRole;
}

/** The one answer for an unknown organization and for one the user does not belong to, so ids cannot be probed. */
export const NOT_A_MEMBER = 'You are not a member of this organization';

/**
 * The user's access to the organization (docs/decisions.md#organization-membership-check): any member, whatever
 * the role; a 403 for an organization that does not exist and for one the user is not in alike.
 */
export async function requireMembership(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<OrganizationAccess> {
  const access = await findMembership(db, userId, organizationId);
  if (access === null) throw forbidden(NOT_A_MEMBER);
  return access;
}

/**
 * The user's membership of the organization, or null when the user is not in it (or it does not exist). For the
 * platform's own organization, where the role is what counts and an outsider gets the same 403 as a member without
 * it (docs/decisions.md#manual-review).
 */
export function membershipIn(db: Database, userId: string, organizationId: string): Promise<OrganizationAccess | null> {
  return findMembership(db, userId, organizationId);
}

/** The answer for an organization named in a path that does not exist or that the user is not in. */
export const ORGANIZATION_NOT_FOUND = 'Organization not found';

/**
 * The user's access to the organization named in a URL (`/v1/organizations/:id/...`): an object of another
 * organization is a 404, the same as one that does not exist (docs/decisions.md#roles).
 */
export async function requireMembershipOf(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<OrganizationAccess> {
  const access = await findMembership(db, userId, organizationId);
  if (access === null) throw notFound(ORGANIZATION_NOT_FOUND);
  return access;
}

// The texts of the answers (docs/decisions.md#organizations-members-and-roles).
const PROFILE_NOT_FOUND = 'Profile not found';
const MEMBER_NOT_FOUND = 'Member not found';
export const LAST_OWNER = 'An organization must keep at least one owner';

/** An organization as its member sees it, with the member's role. */
export type OrganizationView = OrganizationRow;
export type MemberView = MemberRow;

/** What a new organization's owner is told at once: test mode works, live waits for the business verification. */
const GO_LIVE_NOTIFICATION = {
  title: 'Verify your business to go live',
  message:
    'Complete the business verification on the Going live page to unlock live API keys and live top-ups. Test keys ' +
    'work now, with test credit in the test wallet.',
  type: 'info' as const,
  // The dashboard's page of going live (docs/decisions.md#dashboard-pages).
  actionUrl: '/dashboard/activation?org={id}',
};

/** Who asks for a change of the organization: the user and the role the organization guard confirmed. */
export interface Actor {
  userId: string;
  role: MembershipRole;
}

/**
 * Creates an organization with the caller as its owner (docs/decisions.md#organization-creation), in the caller's
 * transaction (the route's, which also stores the idempotent answer): the organization, the owner membership, the
 * live and test wallets (the test one with its test credit: docs/decisions.md#test-credit) and the live and test
 * webhook endpoints with their signing secrets, and the audit event.
 * 404 when the caller has no profile, 400 for a name that fails the rules.
 */
export async function createOrganization(
  tx: Transaction,
  audit: AuditContext,
  input: { userId: string; testWalletCredit?: number } & OrganizationFields & { name: string },
): Promise<OrganizationView> {
  const { userId, testWalletCredit, ...fields } = input;
  const checked = normaliseOrganizationFields(fields);
  if (!checked.ok) throw invalidFields(checked.details);
  if (!(await userExists(tx, input.userId))) throw notFound(PROFILE_NOT_FOUND);

  const organization = await insertOrganization(tx, {
    name: checked.fields.name ?? input.name,
    kraPin: checked.fields.kraPin ?? null,
    address: checked.fields.address ?? null,
    billingEmail: checked.fields.billingEmail ?? null,
  });
  const organizationId = organization.id;
  await insertMembership(tx, { organizationId, userId: input.userId, role: 'owner' });
  for (const environment of apiKeyEnvironments) {
    await ensureWallet(tx, { organizationId, environment }, { testCredit: testWalletCredit });
    await ensureWebhookEndpoint(tx, { organizationId, environment });
  }
  // The promise the owner reads first: live waits for the business verification (docs/decisions.md#going-live).
  await notifyUser(tx, {
    userId: input.userId,
    organizationId,
    ...GO_LIVE_NOTIFICATION,
    message: GO_LIVE_NOTIFICATION.message.replace('{id}', organizationId),
    actionUrl: GO_LIVE_NOTIFICATION.actionUrl.replace('{id}', organizationId),
  });
  await recordAuditEvent(tx, audit, {
    organizationId,
    action: 'organization.created',
    targetType: 'organization',
    targetId: organizationId,
    details: {
      name: organization.name,
      kraPin: organization.kraPin,
      address: organization.address,
      billingEmail: organization.billingEmail,
      ownerUserId: input.userId,
    },
  });
  return { ...organization, role: 'owner' };
}

/** The caller's organizations, newest first, each with the caller's role; 404 when the caller has no profile. */
export async function listOrganizations(db: Database, userId: string): Promise<OrganizationView[]> {
  if (!(await userExists(db, userId))) throw notFound(PROFILE_NOT_FOUND);
  return listOrganizationsOf(db, userId);
}

/**
 * The user's organizations, newest first, each named with the user's role: for a caller that has read the user's
 * profile already (the dashboard's page guard), so the profile is not checked again.
 */
export function listMembershipsOfProfile(db: Database, userId: string): Promise<OrganizationMembership[]> {
  return findMembershipsOf(db, userId);
}

export async function getOrganization(db: Database, userId: string, organizationId: string): Promise<OrganizationView> {
  const organization = await findOrganizationOf(db, userId, organizationId);
  if (organization === undefined) throw notFound(ORGANIZATION_NOT_FOUND);
  return organization;
}

/** Renames the organization or sets its KRA PIN, address or billing email (null clears one), recording the change. */
export async function updateOrganization(
  db: Database,
  audit: AuditContext,
  input: { userId: string; organizationId: string } & OrganizationFields,
): Promise<OrganizationView> {
  const { userId: _userId, organizationId: _organizationId, ...fields } = input;
  const checked = normaliseOrganizationFields(fields);
  if (!checked.ok) throw invalidFields(checked.details);
  const changes = checked.fields;
  return db.transaction(async (tx) => {
    const before = await lockOrganization(tx, input.organizationId);
    if (before === undefined || before.retiredAt !== null) throw notFound(ORGANIZATION_NOT_FOUND);
    const changed: Record<string, { from: string | null; to: string | null }> = {};
    for (const field of ['name', 'kraPin', 'address', 'billingEmail'] as const) {
      const to = changes[field];
      if (to !== undefined && to !== before[field]) changed[field] = { from: before[field], to };
    }
    if (Object.keys(changed).length > 0) {
      await updateOrganizationRow(tx, input.organizationId, changes);
      await recordAuditEvent(tx, audit, {
        organizationId: input.organizationId,
        action: 'organization.updated',
        targetType: 'organization',
        targetId: input.organizationId,
        details: changed,
      });
    }
    const after = await findOrganizationOf(tx, input.userId, input.organizationId);
    if (after === undefined) throw notFound(ORGANIZATION_NOT_FOUND);
    return after;
  });
}

interface OrganizationRemoval {
  id: string;
  /** True when it was deleted; false when it had money history and was retired. */
  deleted: boolean;
  retiredAt: Date | null;
}

/** A removal, with what a retirement did to the organization's billing (for the alarms said once it committed). */
export type OrganizationRemovalResult = OrganizationRemoval & { billing: BillingRetirement | null };

/**
 * True when the organization ever moved money: a ledger movement of one of its wallets, then its billing's (a credit
 * balance movement, a payment whatever its outcome) (docs/decisions.md#organization-deletion).
 */
async function hasMoneyHistory(tx: Transaction, organizationId: string): Promise<boolean> {
  return (await hasLedgerHistory(tx, organizationId)) || (await hasBillingHistory(tx, organizationId));
}

/**
 * Ends an organization (docs/decisions.md#organization-deletion): one that never moved money is deleted with
 * everything it owns; one with money history is retired: retiredAt set, API keys revoked, pending invitations
 * revoked, callback default URLs cleared, every membership removed, its subscription ended and its bank transfers
 * awaited voided (docs/decisions.md#retired-organizations-take-no-money). One transaction, with the organization's row
 * locked FOR UPDATE: every settlement takes that row first, so money arriving at the same moment either landed before
 * (and is ended here) or waits and finds the organization retired. The audit event outlives the organization (the
 * table has no foreign keys).
 */
export async function removeOrganization(
  db: Database,
  audit: AuditContext,
  organizationId: string,
  now: Date,
): Promise<OrganizationRemovalResult> {
  return db.transaction(async (tx) => {
    const organization = await lockOrganization(tx, organizationId);
    if (organization === undefined || organization.retiredAt !== null) throw notFound(ORGANIZATION_NOT_FOUND);
    const event = { organizationId, targetType: 'organization', targetId: organizationId };

    if (!(await hasMoneyHistory(tx, organizationId))) {
      await recordAuditEvent(tx, audit, {
        ...event,
        action: 'organization.deleted',
        details: { name: organization.name },
      });
      await deleteOrganizationRow(tx, organizationId);
      return { id: organizationId, deleted: true, retiredAt: null, billing: null };
    }

    await markOrganizationRetired(tx, organizationId, now);
    const apiKeysRevoked = await revokeOrganizationApiKeys(tx, organizationId, now);
    const invitationsRevoked = await revokePendingInvitations(tx, organizationId, now);
    for (const environment of apiKeyEnvironments) {
      await setDefaultWebhookUrl(tx, { organizationId, environment, defaultUrl: null, now });
    }
    const membersRemoved = await deleteMembershipsOf(tx, organizationId);
    const billing = await endBillingOfRetiredOrganization(tx, audit, organizationId, now);
    await recordAuditEvent(tx, audit, {
      ...event,
      action: 'organization.retired',
      details: {
        name: organization.name,
        apiKeysRevoked,
        invitationsRevoked,
        membersRemoved,
        subscriptionCanceled: billing.subscriptionCanceled,
        transfersVoided: billing.transfersVoided,
        paymentsWithProviders: billing.paymentsWithProviders,
        refundsDue: billing.refundsDue.length,
      },
    });
    return { id: organizationId, deleted: false, retiredAt: now, billing };
  });
}

export function listOrganizationMembers(db: Database, organizationId: string): Promise<MemberView[]> {
  return listMembers(db, organizationId);
}

/**
 * Gives a member another role. The route lets only members:write in (owner, admin); changing an owner, or making
 * one, also needs owners:write (policy.ts, permissionToChangeMember), checked here because it depends on the
 * target. The actor's role is the one the organization guard confirmed when the request started.
 *
 * The owner memberships are locked first (docs/decisions.md#always-one-owner): of two owners demoting each other
 * at once, the second waits, then counts one owner left and is refused with 409. `reviewer` outside the platform's
 * own organization is 400 before anything is read (docs/decisions.md#manual-review).
 */
export async function changeMemberRole(
  db: Database,
  audit: AuditContext,
  input: {
    organizationId: string;
    actor: Actor;
    userId: string;
    role: MembershipRole;
    platformOrganizationId: string | undefined;
  },
): Promise<MemberView> {
  const { organizationId, actor, userId, role } = input;
  assertRoleGivenIn(role, organizationId, input.platformOrganizationId);
  return db.transaction(async (tx) => {
    const owners = await lockOwners(tx, organizationId);
    const current = await lockMembership(tx, organizationId, userId);
    if (current === undefined) throw notFound(MEMBER_NOT_FOUND);
    const permission = permissionToChangeMember(current, role);
    if (!allows(actor.role, permission)) throw forbidden(refusalMessage(permission));
    if (current !== role) {
      if (current === 'owner' && owners.length <= 1) throw conflict(LAST_OWNER);
      await updateMemberRole(tx, organizationId, userId, role);
      await endConsoleSessionsWithoutTheRole(tx, userId, current, role);
      await recordAuditEvent(tx, audit, {
        organizationId,
        action: 'member.role_changed',
        targetType: 'user',
        targetId: userId,
        details: { from: current, to: role },
      });
    }
    const member = await findMember(tx, organizationId, userId);
    if (member === undefined) throw notFound(MEMBER_NOT_FOUND);
    return member;
  });
}

/**
 * Removes a member, or the actor themselves (leaving). Leaving needs no permission (docs/decisions.md#roles), so
 * the route only asks for membership (organization:read) and the rest is decided here, once the target is known:
 * members:write to remove someone, owners:write to remove an owner. The last owner cannot be removed nor leave
 * (409), under the same lock as a role change.
 */
export async function removeMember(
  db: Database,
  audit: AuditContext,
  input: { organizationId: string; actor: Actor; userId: string },
): Promise<{ left: boolean }> {
  const { organizationId, actor, userId } = input;
  return db.transaction(async (tx) => {
    const owners = await lockOwners(tx, organizationId);
    const current = await lockMembership(tx, organizationId, userId);
    if (current === undefined) throw notFound(MEMBER_NOT_FOUND);
    const leaving = userId === actor.userId;
    if (!leaving) {
      const permission = permissionToChangeMember(current);
      if (!allows(actor.role, permission)) throw forbidden(refusalMessage(permission));
    }
    if (current === 'owner' && owners.length <= 1) throw conflict(LAST_OWNER);
    await deleteMembership(tx, organizationId, userId);
    await endConsoleSessionsWithoutTheRole(tx, userId, current, undefined);
    await recordAuditEvent(tx, audit, {
      organizationId,
      action: leaving ? 'member.left' : 'member.removed',
      targetType: 'user',
      targetId: userId,
      details: { role: current },
    });
    return { left: leaving };
  });
}

/**
 * A member whose role no longer decides reviews (changed, or the membership removed) is signed out of the review
 * console everywhere, in the same transaction: the console asks for the role on every request anyway, and this keeps
 * an old session from coming back if the role is given again (docs/decisions.md#console-sessions).
 */
async function endConsoleSessionsWithoutTheRole(
  tx: Transaction,
  userId: string,
  from: MembershipRole,
  to: MembershipRole | undefined,
): Promise<void> {
  if (allows(from, 'reviews:decide') && (to === undefined || !allows(to, 'reviews:decide'))) {
    await endConsoleSessionsInTransaction(tx, userId);
  }
}
