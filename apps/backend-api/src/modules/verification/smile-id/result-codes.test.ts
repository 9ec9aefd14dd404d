import { describe, expect, it } from 'vitest';
import { outcomeOfResultCode } from './result-codes.js';

// The table against Smile ID's published codes (docs/decisions.md#smile-id-result-codes): only the approvals Smile
// ID's own SDKs show for each job type verify, and everything the table does not know goes to a reviewer.

describe("Smile ID's result codes", () => {
  it('verifies on Document Verification’s 0810 for kyc and Business Verification’s 1012 for kyb only', () => {
    expect(outcomeOfResultCode('kyc', '0810')).toEqual({ decision: 'verified' });
    expect(outcomeOfResultCode('kyb', '1012')).toEqual({ decision: 'verified' });
    // Each job type's codes mean nothing for the other.
    expect(outcomeOfResultCode('kyc', '1012')).toEqual({ decision: 'review' });
    expect(outcomeOfResultCode('kyb', '0810')).toEqual({ decision: 'review' });
  });

  it('rejects on a face that does not match, a document that fails its security checks, or a possible spoof', () => {
    for (const code of ['0811', '0812', '0907']) {
      const outcome = outcomeOfResultCode('kyc', code);
      expect(outcome.decision, code).toBe('rejected');
      expect(outcome.decision === 'rejected' && outcome.reason, code).toMatch(/^The .+\. Start a new verification/);
    }
  });

  it('asks for a new selfie when no face is found or it is too poor, and for the number again at the registry', () => {
    expect(outcomeOfResultCode('kyc', '0921')).toMatchObject({
      decision: 'requires_input',
      resubmitDocuments: ['selfie'],
    });
    expect(outcomeOfResultCode('kyc', '0922')).toMatchObject({
      decision: 'requires_input',
      resubmitDocuments: ['selfie'],
    });
    expect(outcomeOfResultCode('kyb', '1013')).toMatchObject({ decision: 'requires_input', resubmitDocuments: [] });
    expect(outcomeOfResultCode('kyb', '1014')).toMatchObject({ decision: 'requires_input', resubmitDocuments: [] });
  });

  it('hands to a reviewer what it does not know: a corrupt upload, provisional results, a registry down, errors', () => {
    // 0903: Smile ID could not read our zip, not the person's photos; 0814: provisional, under Smile ID's review;
    // 1015: the registry was unavailable; 0001: data invalid or an image unusable, which one unsaid.
    for (const code of ['0903', '0814', '0001', '2205', '0999', '']) {
      expect(outcomeOfResultCode('kyc', code), code).toEqual({ decision: 'review' });
    }
    for (const code of ['1015', '1016', '1020', '0001', '9999']) {
      expect(outcomeOfResultCode('kyb', code), code).toEqual({ decision: 'review' });
    }
    // A name the table's object has from its prototype is not a code.
    for (const code of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(outcomeOfResultCode('kyc', code), code).toEqual({ decision: 'review' });
    }
  });
});
