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
export { recordServiceAuditEvent } from './audit-repository.js';
export {
  effectiveRetentionDaysOf,
  findAllowedOrigins,
  findOrganization,
  findOrganizationBuyer,
  findOrganizationKeyRateLimitMax,
  findOrganizationName,
  findVerificationRetentionDays,
  lockOrganizationKeyShare,
  membersOf,
  organizationExists,
  organizationNameOf,
  organizationRetiredAtOf,
  updateKeyRateLimitMaximum,
} from './repository.js';
export {
  effectiveRetentionDays,
  retentionBoundsProblem,
  type VerificationRetentionBounds,
} from './verification-retention.js';
