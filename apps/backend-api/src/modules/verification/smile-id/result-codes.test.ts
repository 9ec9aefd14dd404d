import { describe, expect, it } from 'vitest';
import type { SmileIdResult } from './client.js';
import { checksOfJob } from './result-codes.js';

// The tables against Smile ID's published codes (docs/decisions.md#smile-id-result-codes): each job type's codes
// make its checks; a code a table does not know is an `unavailable` check (a reviewer decides), never a guess.

const result = (resultCode: string, body: Record<string, unknown> = {}): SmileIdResult => ({
  resultCode,
  smileJobId: '0000000001',
  jobId: undefined,
  body: { ResultCode: resultCode, ...body },
});
const outcomes = (checks: ReturnType<typeof checksOfJob>) =>
  Object.fromEntries(checks.map((check) => [check.kind, check.outcome]));

describe("Smile ID's result codes, per job type", () => {
  it('passes Document Verification’s 0810 and compares the selfie with the document’s photo', () => {
    const checks = checksOfJob('document_verification', [result('0810')]);
    expect(outcomes(checks)).toEqual({ document_authenticity: 'passed', face_match: 'passed', liveness: 'passed' });
    expect(checks.find((check) => check.kind === 'face_match')?.details).toEqual({ comparedWith: 'id_document_photo' });
  });

  it('rejects on a face that does not match, a document failing its checks, or a possible spoof', () => {
    for (const [code, kind] of [
      ['0811', 'face_match'],
      ['0812', 'document_authenticity'],
      ['0907', 'liveness'],
    ] as const) {
      const failed = checksOfJob('document_verification', [result(code)]).find((check) => check.kind === kind);
      expect(failed?.consequence?.decision, code).toBe('rejected');
      expect(failed?.consequence?.reason, code).toMatch(/^The .+\. Start a new verification/);
    }
    const biometric = checksOfJob('biometric_kyc', [result('1022')]).find((check) => check.kind === 'face_match');
    expect(biometric).toMatchObject({ outcome: 'failed', details: { comparedWith: 'registry_photo' } });
  });

  it('asks for a new selfie when no face is found or it is too poor', () => {
    for (const code of ['0921', '0922']) {
      const [face] = checksOfJob('biometric_kyc', [result(code)]);
      expect(face?.consequence, code).toMatchObject({ decision: 'requires_input', resubmitDocuments: ['selfie'] });
    }
  });

  it('reads Enhanced KYC’s Actions: which fields differ, never their values', () => {
    const person = { FullName: 'JANE DOE', DOB: '1990-01-01', Photo: 'cGhvdG8=' };
    const [exact] = checksOfJob('enhanced_kyc', [
      result('1012', { ...person, Actions: { Names: 'Exact Match', DOB: 'Exact Match' } }),
    ]);
    expect(exact).toMatchObject({ outcome: 'passed', details: { registryPhoto: true } });
    const [dob] = checksOfJob('enhanced_kyc', [
      result('1012', { ...person, Photo: '', Actions: { Names: 'Exact Match', DOB: 'Non Matching' } }),
    ]);
    expect(dob).toMatchObject({
      outcome: 'attention',
      code: 'dob_mismatch',
      details: { mismatched: ['dateOfBirth'], registryPhoto: false },
    });
    expect(JSON.stringify([dob?.summary, dob?.details])).not.toMatch(/JANE|1990/);
    expect(dob?.evidence).toMatchObject({ fullName: 'JANE DOE' });
    expect(checksOfJob('enhanced_kyc', [result('1013')])[0]).toMatchObject({ outcome: 'failed' });
    expect(checksOfJob('enhanced_kyc', [result('1015')])[0]).toMatchObject({ outcome: 'unavailable' });
  });

  it('parses Business Verification’s company, and AML’s hits', () => {
    const [company] = checksOfJob('business_verification', [
      result('1012', {
        company_information: { legal_name: 'X LTD', registration_number: 'PVT-1', status: 'Registered' },
        directors: [{ name: 'A B' }],
        beneficial_owners: [],
      }),
    ]);
    expect(company).toMatchObject({ outcome: 'passed', details: { status: 'registered', directors: 1 } });
    const [clear] = checksOfJob('aml_screening', [result('1031', { people: [] }), result('1031', { people: [] })]);
    expect(clear).toMatchObject({ outcome: 'passed', details: { screened: 2, hits: 0 } });
    const [hit] = checksOfJob('aml_screening', [result('1030', { people: [{ name: 'A B', pep: {} }] })]);
    expect(hit).toMatchObject({ outcome: 'attention', details: { hits: 1 }, evidence: { hits: [{ name: 'A B' }] } });
  });

  it('makes every code a table does not know an unavailable check, a job type’s codes meaning nothing for another', () => {
    for (const [kind, code] of [
      ['document_verification', '1012'],
      ['biometric_kyc', '0810'],
      ['enhanced_kyc', '0810'],
      ['business_verification', '0810'],
      ['aml_screening', '1012'],
    ] as const) {
      const checks = checksOfJob(kind, [result(code)]);
      expect(checks.length, kind).toBeGreaterThan(0);
      expect(new Set(checks.map((check) => check.outcome)), kind).toEqual(new Set(['unavailable']));
      expect(
        checks.every((check) => check.details?.unmapped === true),
        kind,
      ).toBe(true);
    }
  });
});
