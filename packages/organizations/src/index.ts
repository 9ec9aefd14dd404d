export {
  findAllowedOrigins,
  findOrganization,
  findOrganizationBuyer,
  findOrganizationKeyRateLimitMax,
  findOrganizationName,
  lockOrganizationKeyShare,
  membersOf,
  organizationExists,
  organizationNameOf,
  organizationRetiredAtOf,
  updateKeyRateLimitMaximum,
} from './repository.js';
