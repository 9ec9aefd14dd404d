import type { DocumentKind, VerificationType } from '@platform/db';

// What a Smile ID result code means for a session (docs/decisions.md#smile-id-result-codes, which cites the
// sources of each code). Only the codes below decide; any other code (a provisional result, a registry that was
// down, a corrupt upload, a code added later) sends the session to manual review rather than guess. Reasons are
// this service's words, written for the person: Smile ID's ResultText is never shown, stored or sent.

export type SmileIdOutcome =
  | { decision: 'verified' }
  | { decision: 'rejected'; reason: string }
  | { decision: 'requires_input'; reason: string; resubmitDocuments: readonly DocumentKind[] }
  | { decision: 'review' };

/** Document Verification with SmartSelfie (kyc). */
const documentVerificationCodes: Readonly<Record<string, SmileIdOutcome>> = {
  '0810': { decision: 'verified' },
  '0811': {
    decision: 'rejected',
    reason:
      'The selfie does not match the photo on the ID document. Start a new verification with your own ID document ' +
      'and a selfie of yourself.',
  },
  '0812': {
    decision: 'rejected',
    reason:
      'The ID document could not be confirmed as genuine. Start a new verification with the original document, ' +
      'not a copy or a screen.',
  },
  '0907': {
    decision: 'rejected',
    reason: 'The selfie did not pass the liveness check. Start a new verification and take the selfie live, yourself.',
  },
  '0921': {
    decision: 'requires_input',
    reason: 'No face could be found in the selfie. Take a new selfie with your whole face in view, in good light.',
    resubmitDocuments: ['selfie'],
  },
  '0922': {
    decision: 'requires_input',
    reason: 'The selfie is too blurred or too dark to check. Take a new one in good light, holding the phone still.',
    resubmitDocuments: ['selfie'],
  },
};

/** Business Verification (kyb): the registration number against the Business Registration Service. */
const businessVerificationCodes: Readonly<Record<string, SmileIdOutcome>> = {
  '1012': { decision: 'verified' },
  '1013': {
    decision: 'requires_input',
    reason:
      'The registration number was not found in the business registry. Check it against the certificate of ' +
      'incorporation and submit it again.',
    resubmitDocuments: [],
  },
  '1014': {
    decision: 'requires_input',
    reason: 'The registration number is not in a form the business registry knows. Check it and submit it again.',
    resubmitDocuments: [],
  },
};

/** The outcome of `code` for a session of `type`: `review` for a code this table does not know. */
export function outcomeOfResultCode(type: VerificationType, code: string): SmileIdOutcome {
  const table = type === 'kyc' ? documentVerificationCodes : businessVerificationCodes;
  return Object.hasOwn(table, code) ? (table[code] ?? { decision: 'review' }) : { decision: 'review' };
}
