// What the rest of main-api (the app, the organization-access plugin, the role-matrix test, the invitations module)
// uses of the organizations module.

export {
  closeExpiredPendingInvitation,
  closeInvitation,
  findActiveOrganizationName,
  findOrganizationInvitations,
  insertInvitation,
  insertMembershipIfAbsent,
  isMemberAddress,
  lockInvitationFor,
  lockOrganizationInvitation,
  renewInvitation,
} from './invitations-repository.js';
export {
  allows,
  assertRoleGivenIn,
  isPermission,
  type Permission,
  permissions,
  permissionToChangeMember,
  refusalMessage,
  rolesByPermission,
  rolesThatMay,
} from './policy.js';
export { organizationRoutes } from './routes.js';
export { organizationSharedSchemas } from './schemas.js';
export {
  changeMemberRole,
  LAST_OWNER,
  listOrganizationMembers,
  listOrganizations,
  type MemberView,
  membershipIn,
  NOT_A_MEMBER,
  ORGANIZATION_NOT_FOUND,
  type OrganizationAccess,
  removeMember,
  requireMembership,
  requireMembershipOf,
} from './service.js';
