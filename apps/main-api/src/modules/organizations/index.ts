// What the rest of main-api (the organization-access plugin, the role-matrix test) uses of the organizations module.

export {
  allows,
  isPermission,
  type Permission,
  permissions,
  refusalMessage,
  rolesByPermission,
  rolesThatMay,
} from './policy.js';
export {
  NOT_A_MEMBER,
  ORGANIZATION_NOT_FOUND,
  type OrganizationAccess,
  requireMembership,
  requireMembershipOf,
} from './service.js';
