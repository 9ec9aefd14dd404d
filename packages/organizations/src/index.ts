export {
  ACTIVATED_OWNERS_PART,
  ACTIVATED_PART,
  type ActivationCause,
  findOrganizationActivation,
  lockOrganizationActivation,
  type OrganizationActivation,
  organizationActivationParts,
  setActivationSession,
} from './activation-repository.js';
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
export {
  recordVerifiedDataViewed,
  VERIFIED_DATA_VIEWED,
  type VerifiedDataRead,
} from './verified-data-audit-repository.js';
