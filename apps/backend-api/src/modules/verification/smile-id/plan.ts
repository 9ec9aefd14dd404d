import type { IdType, ProviderJobKind, VerificationType } from '@platform/db';
import type { CheckResult, VerificationPolicy } from '../checks/index.js';

// A session's Smile ID jobs, one after another (docs/decisions.md#smile-id-job-chain): kyc starts with Enhanced KYC
// (the ID number in IPRS); a national ID whose record has a photo goes on to Biometric KYC (the selfie against that
// photo), any other (no registry photo, a passport, an alien card, a number the registry did not confirm) to Document
// Verification (the selfie against the document's photo); kyb is Business Verification. Then the AML Check when the
// organization's policy requires it. Each job's result decides the next; no next job: the policy decides.

/** The first job of a submission. */
export function firstJobKind(type: VerificationType): ProviderJobKind {
  return type === 'kyb' ? 'business_verification' : 'enhanced_kyc';
}

/** The job after `done`, given what it found; undefined when the plan is done. */
export function nextJobKind(plan: {
  done: ProviderJobKind;
  type: VerificationType;
  idType: IdType | undefined;
  policy: VerificationPolicy;
  /** The checks `done` made. */
  found: readonly CheckResult[];
}): ProviderJobKind | undefined {
  const { done, type, idType, policy, found } = plan;
  const screen = policy[type].required.includes('aml_screening') ? ('aml_screening' as const) : undefined;
  switch (done) {
    case 'enhanced_kyc': {
      const registry = found.find((check) => check.kind === 'id_registry');
      const registryPhoto = registry?.details?.registryPhoto === true;
      return idType === 'national_id' && registryPhoto ? 'biometric_kyc' : 'document_verification';
    }
    case 'biometric_kyc':
    case 'document_verification':
      return screen;
    case 'business_verification':
      // The directors are screened by name: without the registry's answer there is no one to screen.
      return found.some((check) => check.kind === 'business_registry' && check.evidence !== undefined)
        ? screen
        : undefined;
    case 'aml_screening':
      return undefined;
  }
}
