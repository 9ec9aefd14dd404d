// What the rest of main-api (the organization-access plugin) uses of the organizations module.

export { NOT_A_MEMBER, type OrganizationAccess, requireMembership } from './service.js';
