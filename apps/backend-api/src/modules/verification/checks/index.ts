// What the verification module, its decision sources and the capture use of a submission's checks
// (docs/decisions.md#verification-checks): the results' shape, the policy and its rule, their rows, the verified data.

export { ageCheck, registryBirthDate } from './age-check.js';
export { nairobiDay } from './calendar.js';
export type { CheckConsequence, CheckResult } from './check-results.js';
export { documentExpiryCheck } from './document-expiry-check.js';
export { duplicateIdNumberCheck } from './duplicate-id-number-check.js';
export { mrzCheck } from './mrz-check.js';
export { decideFromChecks, type PolicyDecision, policyNamed, type VerificationPolicy } from './policy.js';
export { eraseCheckEvidence, listSessionChecks, writeDecisionPolicy } from './repository.js';
export { openCheckEvidence, recordChecks, submissionResults } from './service.js';
export { openVerifiedOutputs, storeVerifiedOutputs, type VerifiedOutputs } from './verified-outputs.js';
