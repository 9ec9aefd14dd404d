import type {
  DocumentKind,
  VerificationCheckKind,
  VerificationCheckOutcome,
  VerificationCheckSource,
} from '@platform/db';

// One check's result, as its maker reports it (docs/decisions.md#verification-checks): this service's own checks,
// Smile ID's jobs (one job gives several checks: Biometric KYC a face match and a liveness check), or a test
// session's fake results. The policy (./policy.ts) turns the results of a submission into its decision.

/** What a failed check asks for when the policy lets it decide: a final refusal, or documents sent again. */
export type CheckConsequence =
  | { decision: 'rejected'; reason: string }
  | { decision: 'requires_input'; reason: string; resubmitDocuments: readonly DocumentKind[] };

export interface CheckResult {
  kind: VerificationCheckKind;
  source: VerificationCheckSource;
  outcome: VerificationCheckOutcome;
  /** The provider's result code, or this service's code for what it found (`id_number_mismatch`). */
  code?: string | undefined;
  /**
   * What was found, in this service's words, for the reviewer and the session's `checks`: never the person's data
   * ("The ID number typed does not match the registry's record", not the numbers).
   */
  summary: string;
  /** Facts without personal data: `{ comparedWith: 'registry_photo' }`, `{ mismatched: ['idNumber'] }`. */
  details?: Readonly<Record<string, unknown>> | undefined;
  /** The person's data the check saw (the registry's names, screening hits): sealed when stored, shown to reviewers. */
  evidence?: Readonly<Record<string, unknown>> | undefined;
  /** With `failed`: what the person is told and asked for, when the policy lets the failure decide. */
  consequence?: CheckConsequence | undefined;
  /** The provider job that made it. */
  providerJobId?: string | undefined;
}
