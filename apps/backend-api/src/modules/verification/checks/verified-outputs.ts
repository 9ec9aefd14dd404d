import type { DatabaseExecutor, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { openVerifiedOutputs, type VerifiedOutputs, verifiedOutputsKey } from '@platform/verification-lifecycle';
import { writeVerifiedOutputs } from './repository.js';

// What a verification verified (docs/decisions.md#verified-data), as Stripe's `verified_outputs`: kept sealed on the
// session, written with its verified decision by whatever decided it, read only through the explicit expansion. The
// types and their opening live in @platform/verification-lifecycle (main-api's reviewers write them, its members
// read them) and are re-exported here.

export { openVerifiedOutputs, type VerifiedOutputs };

/** Seals and stores what was verified, in the decision's transaction. */
export async function storeVerifiedOutputs(
  tx: DatabaseExecutor,
  vault: DocumentVault,
  session: Pick<VerificationSession, 'id' | 'type'>,
  outputs: VerifiedOutputs,
): Promise<void> {
  const { sealed } = vault.seal({
    key: verifiedOutputsKey(session),
    bytes: Buffer.from(JSON.stringify(outputs)),
    contentType: 'application/json',
  });
  await writeVerifiedOutputs(tx, session.id, sealed);
}
