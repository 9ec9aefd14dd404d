import type { MembershipRole } from '@platform/db';
import { validationError } from '@platform/errors';

// The role policy: the one place that says which role may do what in an organization
// (docs/decisions.md#roles). Every organization route names the permission it needs
// (`config: { requires: 'billing:write' }`); the organization-access plugin asks `allows` and answers 403 with
// `refusalMessage` otherwise. The table is data, so the docs, the OpenAPI descriptions and the role-matrix test
// read the same thing.

export const permissions = [
  /** Read the organization, its subscription, payments, payment methods, keys, webhooks and members. */
  'organization:read',
  /** Pay, buy, upgrade or change a subscription, remove a payment method. */
  'billing:write',
  /** Create, change or revoke API keys and webhook endpoints; reveal or rotate their secrets; set allowed origins. */
  'developer:write',
  /** Invite members, change the role of or remove members who are not owners. */
  'members:write',
  /** Make or remove owners; delete or retire the organization. */
  'owners:write',
  /** Read the organization's audit log. */
  'audit:read',
  /** Add free test credit to the test wallet (docs/decisions.md#test-top-ups): no money, test keys only. */
  'wallet:test_top_up',
  /**
   * Start the organization's activation: verify the business through the platform's KYB session, which unlocks live
   * API keys and live top-ups once verified (docs/decisions.md#going-live). Owners only: they answer for the business.
   */
  'organization:activate',
  /**
   * Read the organization's verification sessions, their timelines and callbacks. A session id is its hosted page's
   * credential, so only the roles that could read them with an API key they may create
   * (docs/decisions.md#organization-session-list).
   */
  'verifications:read',
  /**
   * Read what a verification verified (names, ID numbers, a business's registration) and give an API key the
   * permission `verified_data:read` to read it: owners and admins only, each read recorded in the audit log
   * (docs/decisions.md#verified-data).
   */
  'verifications:read_personal_data',
  /** Cancel a verification session not yet decided, releasing its hold (docs/decisions.md#cancel-from-the-main-api). */
  'verifications:cancel',
  /**
   * Set how long the organization's verification records are kept after a final status, within the platform's
   * bounds (docs/decisions.md#retention-per-organization): what the business answers for to its regulator.
   */
  'records:write',
  /**
   * Review verification sessions sent to manual review: the queue, their documents, claims and decisions. Held in
   * the platform's own organization only, by reviewers only: those who sell do not verify
   * (docs/decisions.md#manual-review).
   */
  'reviews:decide',
  /**
   * See the bank transfers of every organization and confirm the money they received: what finance staff do from the
   * bank statement. Held in the platform's own organization only, by its finance role only: those who sell or review
   * do not confirm money (docs/decisions.md#finance-role).
   */
  'transfers:confirm',
  /**
   * See the money that arrived for retired organizations, to refund: what the platform's finance staff give back.
   * Held in the platform's own organization only, by its finance role only
   * (docs/decisions.md#retired-organizations-take-no-money).
   */
  'refunds:read',
] as const;
export type Permission = (typeof permissions)[number];

/** Which roles hold each permission, in the order roles are listed everywhere (owner first). */
export const rolesByPermission: Readonly<Record<Permission, readonly MembershipRole[]>> = {
  'organization:read': ['owner', 'admin', 'developer', 'billing', 'member', 'reviewer', 'finance'],
  'billing:write': ['owner', 'admin', 'billing'],
  'developer:write': ['owner', 'admin', 'developer'],
  'members:write': ['owner', 'admin'],
  'owners:write': ['owner'],
  'audit:read': ['owner', 'admin'],
  'verifications:read': ['owner', 'admin', 'developer'],
  'verifications:read_personal_data': ['owner', 'admin'],
  'verifications:cancel': ['owner', 'admin', 'developer'],
  'records:write': ['owner', 'admin'],
  'wallet:test_top_up': ['owner', 'admin', 'developer', 'billing'],
  'organization:activate': ['owner'],
  'reviews:decide': ['reviewer'],
  'transfers:confirm': ['finance'],
  'refunds:read': ['finance'],
};

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (permissions as readonly string[]).includes(value);
}

export function allows(role: MembershipRole, permission: Permission): boolean {
  return rolesByPermission[permission].includes(role);
}

/** "owner, admin or billing": the roles that hold a permission, for messages and docs. */
export function rolesThatMay(permission: Permission): string {
  const roles = [...rolesByPermission[permission]];
  const last = roles.pop();
  return roles.length === 0 ? String(last) : `${roles.join(', ')} or ${last}`;
}

/** The 403 message for a member whose role lacks the permission: it names the roles that have it. */
export function refusalMessage(permission: Permission): string {
  return `This needs the role ${rolesThatMay(permission)}`;
}

/**
 * The permission a change of membership needs: owners:write when an owner is made, demoted or removed,
 * members:write otherwise (docs/decisions.md#roles).
 *
 * It depends on the target, which the organization guard does not know, so the member routes name the least they
 * need and the service (service.ts, changeMemberRole and removeMember) asks this once it has read the target under
 * lock: PATCH /v1/organizations/:id/members/:userId requires members:write; DELETE requires organization:read,
 * because removing oneself (leaving) needs no permission, and removing anyone else is checked here.
 */
export function permissionToChangeMember(currentRole: MembershipRole, newRole?: MembershipRole): Permission {
  return currentRole === 'owner' || newRole === 'owner' ? 'owners:write' : 'members:write';
}

/** Roles of the platform's own staff, given in the platform's own organization only. */
const PLATFORM_ONLY_ROLES: ReadonlySet<MembershipRole> = new Set(['reviewer', 'finance']);

/** The 400 for giving a platform-only role outside the platform's own organization. */
export function platformOnlyRoleMessage(role: MembershipRole): string {
  return `The role ${role} is given only in the platform's own organization`;
}

/** The 400 for making someone a reviewer outside the platform's own organization. */
export const REVIEWER_ONLY_IN_PLATFORM = platformOnlyRoleMessage('reviewer');

/**
 * Refuses (400 on `/role`) a role the organization cannot give: `reviewer` and `finance` anywhere but the platform's
 * own organization (PLATFORM_ORGANIZATION_ID; with none configured, nowhere), for invitations and role changes alike
 * (docs/decisions.md#manual-review, docs/decisions.md#finance-role).
 */
export function assertRoleGivenIn(
  role: MembershipRole,
  organizationId: string,
  platformOrganizationId: string | undefined,
): void {
  if (PLATFORM_ONLY_ROLES.has(role) && organizationId !== platformOrganizationId) {
    const message = platformOnlyRoleMessage(role);
    throw validationError(message, [{ path: '/role', message }]);
  }
}
