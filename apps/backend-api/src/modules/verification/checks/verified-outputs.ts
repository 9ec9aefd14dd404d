import type { DatabaseExecutor, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { type VerifiedOutputs, verifiedOutputsKey } from '@platform/verification-lifecycle';
import { writeVerifiedOutputs } from './repository.js';

// What a verification verified (docs/decisions.md#verified-data), as Stripe's `verified_outputs`: kept sealed on the
// session, written with its verified decision by whatever decided it, read only through the explicit expansion. The
// types live in @platform/verification-lifecycle (main-api's reviewers write them too) and are re-exported here.

export type { VerifiedOutputs };

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

/** What was verified, opened; undefined before a verified decision and after erasure. */
export function openVerifiedOutputs(
  vault: DocumentVault,
  session: Pick<VerificationSession, 'id' | 'type' | 'verifiedOutputs'>,
): VerifiedOutputs | undefined {
  if (session.verifiedOutputs === null) return undefined;
  const opened = vault.open(verifiedOutputsKey(session), Buffer.from(session.verifiedOutputs));
  return JSON.parse(opened.bytes.toString('utf8')) as VerifiedOutputs;
}
