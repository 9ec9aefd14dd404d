import type { IdType, Transaction, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import type { CheckResult } from './check-results.js';
import { lockIdNumberDigest, sessionsWithIdNumber, writeIdNumberDigest } from './repository.js';

// The duplicate ID number check (docs/decisions.md#own-checks): the same ID type and number submitted for another
// end user (`externalEndUserId`) of the organization, in the same environment, whose session is verified or being
// decided, is flagged for a person. The number is compared by its digest (`id_number_digest`, the vault's keyed
// HMAC), which is all the session keeps of it outside the seal. Submissions of one number take turns on an advisory
// lock, so two made at once for two end users cannot both pass unseen.

const DIGEST_PURPOSE = 'verification-id-number';
/** How many of the other sessions the check names (their ids are the organization's own). */
const NAMED_SESSIONS = 5;

export async function duplicateIdNumberCheck(
  tx: Transaction,
  vault: Pick<DocumentVault, 'digest'>,
  session: Pick<VerificationSession, 'id' | 'organizationId' | 'environment' | 'externalEndUserId'>,
  { idType, idNumber }: { idType: IdType; idNumber: string },
): Promise<CheckResult> {
  const digests = vault.digest(DIGEST_PURPOSE, `${idType}:${idNumber}`);
  await lockIdNumberDigest(tx, session, digests.current);
  await writeIdNumberDigest(tx, session.id, digests.current);
  const others = await sessionsWithIdNumber(tx, session, digests.all);
  if (others.length === 0) {
    return {
      kind: 'duplicate_id_number',
      source: 'service',
      outcome: 'passed',
      summary: 'No other end user of the organization was verified with this ID number.',
    };
  }
  return {
    kind: 'duplicate_id_number',
    source: 'service',
    outcome: 'failed',
    code: 'duplicate_id_number',
    summary: 'The same ID number was submitted for another end user of the organization, verified or being decided.',
    details: { otherSessions: others.length, sessionIds: others.slice(0, NAMED_SESSIONS) },
  };
}
