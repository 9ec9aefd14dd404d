import { describe, expect, it } from 'vitest';
import type { CheckResult } from './check-results.js';
import { decideFromChecks, ENHANCED_POLICY, policyNamed, STANDARD_POLICY } from './policy.js';

const passed = (kind: CheckResult['kind']): CheckResult => ({
  kind,
  source: 'service',
  outcome: 'passed',
  summary: `${kind} passed`,
});

const allKyc = STANDARD_POLICY.kyc.required.map(passed);

describe('the verification policy', () => {
  it('verifies a national ID submission whose every required check passed', () => {
    expect(decideFromChecks(STANDARD_POLICY, 'kyc', 'national_id', allKyc)).toEqual({ decision: 'verified' });
  });

  it('reviews a submission whose required check did not run, naming it', () => {
    const withoutDocument = allKyc.filter((check) => check.kind !== 'document_authenticity');
    const decision = decideFromChecks(STANDARD_POLICY, 'kyc', 'passport', withoutDocument);
    expect(decision).toEqual({ decision: 'review', reason: 'The document authenticity check did not run.' });
  });

  it('rejects on a failure whose consequence is a refusal, even when another check needs a person', () => {
    const results: CheckResult[] = [
      ...allKyc,
      {
        kind: 'face_match',
        source: 'smile_id',
        outcome: 'failed',
        summary: 'The selfie does not match.',
        consequence: { decision: 'rejected', reason: 'The selfie does not match the photo.' },
      },
      { kind: 'id_registry', source: 'smile_id', outcome: 'attention', summary: 'Names differ.' },
    ];
    expect(decideFromChecks(STANDARD_POLICY, 'kyc', 'national_id', results)).toEqual({
      decision: 'rejected',
      reason: 'The selfie does not match the photo.',
    });
  });

  it('asks again for every document the failed checks name, in one decision', () => {
    const results: CheckResult[] = [
      ...allKyc,
      {
        kind: 'liveness',
        source: 'smile_id',
        outcome: 'failed',
        summary: 'Blurred selfie.',
        consequence: { decision: 'requires_input', reason: 'Take a new selfie.', resubmitDocuments: ['selfie'] },
      },
      {
        kind: 'document_expiry',
        source: 'service',
        outcome: 'failed',
        summary: 'Expired.',
        consequence: {
          decision: 'requires_input',
          reason: 'The ID has expired.',
          resubmitDocuments: ['id_document_front', 'id_document_back'],
        },
      },
    ];
    expect(decideFromChecks(STANDARD_POLICY, 'kyc', 'national_id', results)).toEqual({
      decision: 'requires_input',
      reason: 'Take a new selfie. The ID has expired.',
      resubmitDocuments: ['selfie', 'id_document_front', 'id_document_back'],
    });
  });

  it('sends to review a failure of a kind the policy keeps for a person, naming it', () => {
    const results: CheckResult[] = [
      ...allKyc,
      {
        kind: 'id_registry',
        source: 'smile_id',
        outcome: 'failed',
        code: 'id_number_mismatch',
        summary: 'The ID number typed does not match the ID card.',
        consequence: { decision: 'rejected', reason: 'Not the same number.' },
      },
    ];
    expect(decideFromChecks(STANDARD_POLICY, 'kyc', 'national_id', results)).toEqual({
      decision: 'review',
      reason: 'The ID number typed does not match the ID card.',
    });
  });

  it('sends to review a check that could not be made, and counts the newest result of a kind', () => {
    const unavailable: CheckResult = {
      kind: 'id_registry',
      source: 'smile_id',
      outcome: 'unavailable',
      summary: 'The registry did not answer.',
    };
    expect(decideFromChecks(STANDARD_POLICY, 'kyc', 'national_id', [...allKyc, unavailable]).decision).toBe('review');
    expect(decideFromChecks(STANDARD_POLICY, 'kyc', 'national_id', [unavailable, ...allKyc]).decision).toBe('verified');
  });

  it('asks the enhanced policy for a screening the standard one does without', () => {
    expect(decideFromChecks(ENHANCED_POLICY, 'kyc', 'national_id', allKyc)).toEqual({
      decision: 'review',
      reason: 'The aml screening check did not run.',
    });
    const kyb = [passed('business_registry'), passed('directors')];
    expect(decideFromChecks(STANDARD_POLICY, 'kyb', undefined, kyb)).toEqual({ decision: 'verified' });
  });

  it('finds a policy by name, the standard one for none or an unknown name', () => {
    expect(policyNamed('enhanced')).toBe(ENHANCED_POLICY);
    expect(policyNamed(null)).toBe(STANDARD_POLICY);
    expect(policyNamed('gold')).toBe(STANDARD_POLICY);
  });
});
