import type { Transaction, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import type { SubmittedDetails } from '@platform/verification-lifecycle';
import {
  ageCheck,
  type CheckResult,
  documentExpiryCheck,
  duplicateIdNumberCheck,
  mrzCheck,
  nairobiDay,
  type VerificationPolicy,
} from '../checks/index.js';
import { isTestIdNumber } from './test-values.js';

// The checks this service makes alone at every kyc submission, whatever decides it (docs/decisions.md#own-checks):
// the passport's MRZ, the document's expiry, the person's age and the same ID number for another end user. They are
// recorded beside the decision source's; the organization's policy decides over them all.

export async function ownChecks(
  tx: Transaction,
  vault: Pick<DocumentVault, 'digest'>,
  session: VerificationSession,
  details: SubmittedDetails,
  { policy, now }: { policy: VerificationPolicy; now: Date },
): Promise<CheckResult[]> {
  if (details.type !== 'kyc') return [];
  const today = nairobiDay(now);
  const checks: CheckResult[] = [];
  let mrzExpiry: string | undefined;
  if (details.idType === 'passport') {
    const reading = mrzCheck(details);
    checks.push(reading.result);
    mrzExpiry = reading.expiry;
  }
  const expiry =
    details.documentExpiry !== undefined
      ? { date: details.documentExpiry, from: 'typed' as const }
      : mrzExpiry === undefined
        ? undefined
        : { date: mrzExpiry, from: 'mrz' as const };
  checks.push(documentExpiryCheck(expiry, { idType: details.idType, today }));
  checks.push(ageCheck(details.dateOfBirth, { minimumAge: policy.minimumAge, today, from: 'typed' }));
  checks.push(await duplicateCheck(tx, vault, session, details));
  return checks;
}

async function duplicateCheck(
  tx: Transaction,
  vault: Pick<DocumentVault, 'digest'>,
  session: VerificationSession,
  details: Extract<SubmittedDetails, { type: 'kyc' }>,
): Promise<CheckResult> {
  const notCompared = (summary: string): CheckResult => ({
    kind: 'duplicate_id_number',
    source: 'service',
    outcome: 'not_applicable',
    summary,
  });
  // A director's session is the service's, made for the business: the same person may direct several businesses.
  if (session.parentSessionId !== null)
    return notCompared('A director’s ID number is not compared with other sessions.');
  // Integrators use the test ID numbers for every test end user (docs/decisions.md#test-values).
  if (session.environment === 'test' && isTestIdNumber(details)) {
    return notCompared('Test ID numbers are not compared with other sessions.');
  }
  return duplicateIdNumberCheck(tx, vault, session, details);
}
