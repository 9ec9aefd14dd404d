import type { ProviderJobKind } from '@platform/db';
import type { CheckConsequence, CheckResult } from '../checks/index.js';
import type { SmileIdResult } from './client.js';
import { amlChecks, businessChecks, enhancedKycChecks, unmapped } from './result-checks.js';

export { isUnmapped } from './result-checks.js';

// What a Smile ID job's result says, as checks (docs/decisions.md#smile-id-result-codes): one table of result codes
// per job type. A code a table does not know (a provisional result, a code added later) is an `unavailable` check,
// which the policy sends to a reviewer rather than guess. Summaries and reasons are this service's words: Smile
// ID's ResultText is never shown, stored or sent, and no check's summary or details carry the person's data.

type Outcome = Pick<CheckResult, 'outcome' | 'consequence'>;
const passed: Outcome = { outcome: 'passed' };
const rejected = (reason: string): Outcome => ({ outcome: 'failed', consequence: { decision: 'rejected', reason } });
const newSelfie = (reason: string): Outcome => ({
  outcome: 'failed',
  consequence: { decision: 'requires_input', reason, resubmitDocuments: ['selfie'] } satisfies CheckConsequence,
});

const FACE_REJECTED = rejected(
  'The selfie does not match the photo on the ID document. Start a new verification with your own ID document ' +
    'and a selfie of yourself.',
);
const DOCUMENT_REJECTED = rejected(
  'The ID document could not be confirmed as genuine. Start a new verification with the original document, ' +
    'not a copy or a screen.',
);
const SPOOF_REJECTED = rejected(
  'The selfie did not pass the liveness check. Start a new verification and take the selfie live, yourself.',
);
const NO_FACE = newSelfie(
  'No face could be found in the selfie. Take a new selfie with your whole face in view, in good light.',
);
const POOR_SELFIE = newSelfie(
  'The selfie is too blurred or too dark to check. Take a new one in good light, holding the phone still.',
);

interface FaceJobCodes {
  document_authenticity?: Outcome;
  face_match: Outcome;
  liveness: Outcome;
}

/** Document Verification with SmartSelfie (job type 6): the document, the selfie against its photo, liveness. */
const documentVerificationCodes: Readonly<Record<string, FaceJobCodes>> = {
  '0810': { document_authenticity: passed, face_match: passed, liveness: passed },
  '0811': { document_authenticity: passed, face_match: FACE_REJECTED, liveness: passed },
  '0812': { document_authenticity: DOCUMENT_REJECTED, face_match: passed, liveness: passed },
  '0907': { document_authenticity: passed, face_match: passed, liveness: SPOOF_REJECTED },
  '0921': { document_authenticity: passed, face_match: NO_FACE, liveness: NO_FACE },
  '0922': { document_authenticity: passed, face_match: POOR_SELFIE, liveness: POOR_SELFIE },
};

/** Biometric KYC (job type 1): the selfie against the registry's photo of the ID number, with liveness. */
const biometricKycCodes: Readonly<Record<string, FaceJobCodes>> = {
  '1020': { face_match: passed, liveness: passed },
  // A partial match is of the ID's details, not of the face: the registry check (Enhanced KYC) says which.
  '1021': { face_match: passed, liveness: passed },
  '1022': {
    face_match: rejected(
      'The selfie does not match the registry’s photo of this ID number. Start a new verification with your own ' +
        'ID number and a selfie of yourself.',
    ),
    liveness: passed,
  },
  '0907': { face_match: passed, liveness: SPOOF_REJECTED },
  '0921': { face_match: NO_FACE, liveness: NO_FACE },
  '0922': { face_match: POOR_SELFIE, liveness: POOR_SELFIE },
};

const summaries = {
  document_authenticity: {
    passed: 'The ID document passed Smile ID’s checks.',
    failed: 'The ID document failed Smile ID’s checks.',
  },
  face_match: { passed: 'The selfie matches the photo.', failed: 'The selfie does not match the photo.' },
  liveness: { passed: 'The selfie passed the liveness check.', failed: 'The selfie failed the liveness check.' },
} as const;

function faceChecks(
  table: Readonly<Record<string, FaceJobCodes>>,
  result: SmileIdResult,
  comparedWith: 'registry_photo' | 'id_document_photo',
): CheckResult[] {
  const row = Object.hasOwn(table, result.resultCode) ? table[result.resultCode] : undefined;
  const kinds = ['document_authenticity', 'face_match', 'liveness'] as const;
  if (row === undefined) return unmapped(comparedWith === 'registry_photo' ? kinds.slice(1) : kinds, result.resultCode);
  const checks: CheckResult[] = [];
  for (const kind of kinds) {
    const outcome = row[kind];
    if (outcome === undefined) continue;
    checks.push({
      kind,
      source: 'smile_id',
      ...outcome,
      code: result.resultCode,
      summary: summaries[kind][outcome.outcome === 'passed' ? 'passed' : 'failed'],
      ...(kind === 'face_match' ? { details: { comparedWith } } : {}),
      ...(kind === 'document_authenticity' ? { evidence: documentEvidence(result.body) } : {}),
    });
  }
  if (comparedWith === 'registry_photo') {
    // The registry's own record and photo confirmed the person: the ID card itself is not sent to Smile ID.
    checks.push({
      kind: 'document_authenticity',
      source: 'smile_id',
      outcome: 'not_applicable',
      code: result.resultCode,
      summary: 'The ID card was not checked: the registry’s record and photo confirmed the person.',
      details: { confirmedBy: 'registry_photo' },
    });
  }
  return checks;
}

/** What the document said of the person (Document Verification's result), sealed with the check. */
function documentEvidence(body: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const text = (key: string) => (typeof body[key] === 'string' && body[key] !== '' ? body[key] : null);
  return {
    fullName: text('FullName'),
    dateOfBirth: text('DOB'),
    idNumber: text('IDNumber'),
    expirationDate: text('ExpirationDate'),
    country: text('Country'),
  };
}

/** The checks a job's results make. */
export function checksOfJob(kind: ProviderJobKind, results: readonly SmileIdResult[]): CheckResult[] {
  const [first] = results;
  switch (kind) {
    case 'document_verification':
      return first === undefined ? [] : faceChecks(documentVerificationCodes, first, 'id_document_photo');
    case 'biometric_kyc':
      return first === undefined ? [] : faceChecks(biometricKycCodes, first, 'registry_photo');
    case 'enhanced_kyc':
      return first === undefined ? [] : enhancedKycChecks(first);
    case 'business_verification':
      return first === undefined ? [] : businessChecks(first);
    case 'aml_screening':
      return amlChecks(results);
  }
}
