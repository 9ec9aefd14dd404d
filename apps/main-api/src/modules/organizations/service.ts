import type { Database, MembershipRole } from '@platform/db';
import { forbidden, notFound } from '@platform/errors';
import { findMembership } from './repository.js';

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
