// What the verification module, its decision sources and the capture use of a submission's checks
// (docs/decisions.md#verification-checks): the results' shape, the policy and its rule, their rows, the verified data.

export type { CheckConsequence, CheckResult } from './check-results.js';
export {
  appliesTo,
  decideFromChecks,
  ENHANCED_POLICY,
  type PolicyDecision,
  policyNamed,
  STANDARD_POLICY,
  type TypePolicy,
  type VerificationPolicy,
  verificationPolicies,
} from './policy.js';
export { eraseCheckEvidence, listSessionChecks, writeDecisionPolicy } from './repository.js';
export { openCheckEvidence, recordChecks, resultOfRow, submissionResults } from './service.js';
export {
  openVerifiedOutputs,
  storeVerifiedOutputs,
  type VerifiedBusiness,
  type VerifiedBusinessPerson,
  type VerifiedOutputs,
  type VerifiedPerson,
} from './verified-outputs.js';
