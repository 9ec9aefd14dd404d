// What the rest of main-api (the app, the organization-access plugin, the role-matrix test, the invitations module,
// the dashboard) uses of the organizations module.

export {
  closeExpiredPendingInvitation,
  closeInvitation,
  findActiveOrganizationName,
  findInvitationAddressedTo,
  findOrganizationInvitations,
  findPendingInvitationsTo,
  insertInvitation,
  insertMembershipIfAbsent,
  isMemberAddress,
  lockInvitationFor,
  lockOrganizationInvitation,
  renewInvitation,
} from './invitations-repository.js';
export {
  KRA_PIN_INPUT_PATTERN,
  normaliseOrganizationFields,
  ORGANIZATION_NAME_MAX_LENGTH,
} from './organization-fields.js';
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
  createOrganization,
  getOrganization,
  LAST_OWNER,
  listMembershipsOfProfile,
  listOrganizationMembers,
  type MemberView,
  membershipIn,
  NOT_A_MEMBER,
  ORGANIZATION_NOT_FOUND,
  type OrganizationAccess,
  removeMember,
  requireMembership,
  requireMembershipOf,
  updateOrganization,
} from './service.js';
