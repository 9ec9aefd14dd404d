import type { DocumentKind, IdType, VerificationCheckKind, VerificationType } from '@platform/db';
import type { CheckResult } from './check-results.js';

// The verification policy (docs/decisions.md#verification-policy): which checks a submission must pass, per
// verification type, and the one rule that maps their results to verified, rejected, requires_input (naming what to
// send again) or review. The platform configures the policies; an organization that pays for more is given another
// by name (`organizations.verification_policy`).

interface TypePolicy {
  /** The checks that must have passed (or found nothing to check) for the session to be verified, in this order. */
  required: readonly VerificationCheckKind[];
  /** Failed checks of these kinds go to a person even when the check names a consequence. */
  reviewOnFailure: readonly VerificationCheckKind[];
}

export interface VerificationPolicy {
  name: string;
  /** The youngest a verified person may be (the age check). */
  minimumAge: number;
  kyc: TypePolicy;
  kyb: TypePolicy;
}

// The decision source's checks, then this service's own, made at every submission (docs/decisions.md#own-checks).
const KYC_CHECKS: readonly VerificationCheckKind[] = [
  'id_registry',
  'document_authenticity',
  'face_match',
  'liveness',
  'mrz',
  'document_expiry',
  'age',
  'duplicate_id_number',
];

/** Every platform's default: the registry, the face, the document and this service's own checks; no screening. */
export const STANDARD_POLICY: VerificationPolicy = {
  name: 'standard',
  minimumAge: 18,
  kyc: { required: KYC_CHECKS, reviewOnFailure: ['id_registry', 'duplicate_id_number', 'mrz'] },
  kyb: { required: ['business_registry', 'directors'], reviewOnFailure: ['business_registry', 'directors'] },
};

/** What an organization that pays for more is given: sanctions and PEP screening of the person or each director. */
export const ENHANCED_POLICY: VerificationPolicy = {
  name: 'enhanced',
  minimumAge: 18,
  kyc: { ...STANDARD_POLICY.kyc, required: [...KYC_CHECKS, 'aml_screening'] },
  kyb: { ...STANDARD_POLICY.kyb, required: [...STANDARD_POLICY.kyb.required, 'aml_screening'] },
};

const verificationPolicies: Readonly<Record<string, VerificationPolicy>> = {
  standard: STANDARD_POLICY,
  enhanced: ENHANCED_POLICY,
};

/** The policy an organization's sessions are decided by: its own by name, else the standard one. */
export function policyNamed(name: string | null | undefined): VerificationPolicy {
  return (name !== null && name !== undefined && verificationPolicies[name]) || STANDARD_POLICY;
}

/** Whether a submission of this ID type gets the check at all (the MRZ is a passport's). */
function appliesTo(kind: VerificationCheckKind, idType: IdType | undefined): boolean {
  if (kind === 'mrz') return idType === 'passport';
  return true;
}

export type PolicyDecision =
  | { decision: 'verified' }
  | { decision: 'rejected'; reason: string }
  | { decision: 'requires_input'; reason: string; resubmitDocuments: readonly DocumentKind[] }
  | { decision: 'review'; reason: string };

/**
 * The rule, over the results of one submission, newest result of a kind counting:
 * 1. a failed check whose consequence is a rejection, unless the policy sends that kind to a person: rejected;
 * 2. failed checks asking for documents again (same exception): requires_input, naming all of them;
 * 3. any other failure, anything needing attention, a check that could not be made, or a required check missing:
 *    review, naming each;
 * 4. otherwise verified.
 * A refusal beats a resend, and both beat review: a face that does not match is final whatever else was found.
 */
export function decideFromChecks(
  policy: VerificationPolicy,
  type: VerificationType,
  idType: IdType | undefined,
  results: readonly CheckResult[],
): PolicyDecision {
  const rules = policy[type];
  const latest = new Map<VerificationCheckKind, CheckResult>();
  for (const result of results) latest.set(result.kind, result);
  const considered = [...latest.values()];
  const decides = (result: CheckResult) =>
    result.outcome === 'failed' && result.consequence !== undefined && !rules.reviewOnFailure.includes(result.kind);

  const rejection = considered.find((result) => decides(result) && result.consequence?.decision === 'rejected');
  if (rejection?.consequence?.decision === 'rejected') {
    return { decision: 'rejected', reason: rejection.consequence.reason };
  }
  const resends = considered.filter((result) => decides(result) && result.consequence?.decision === 'requires_input');
  if (resends.length > 0) {
    const documents = new Set<DocumentKind>();
    for (const result of resends) {
      if (result.consequence?.decision === 'requires_input') {
        for (const kind of result.consequence.resubmitDocuments) documents.add(kind);
      }
    }
    const reason = resends.map((result) => result.consequence?.reason ?? result.summary).join(' ');
    return { decision: 'requires_input', reason, resubmitDocuments: [...documents] };
  }
  const needsPerson = considered
    .filter((result) => result.outcome !== 'passed' && result.outcome !== 'not_applicable')
    .map((result) => result.summary);
  const missing = rules.required.filter((kind) => appliesTo(kind, idType) && !latest.has(kind));
  if (needsPerson.length > 0 || missing.length > 0) {
    const reasons = [...needsPerson, ...missing.map((kind) => `The ${kind.replaceAll('_', ' ')} check did not run.`)];
    return { decision: 'review', reason: reasons.join(' ') };
  }
  return { decision: 'verified' };
}
