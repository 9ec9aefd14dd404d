import type { DatabaseExecutor, IdType, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { verifiedOutputsKey } from '@platform/verification-lifecycle';
import { writeVerifiedOutputs } from './repository.js';

// What a verification verified (docs/decisions.md#verified-data), as Stripe's `verified_outputs`: kept sealed on the
// session, written with its verified decision by whatever decided it, read only through the explicit expansion.

/** A person as the registry or the document confirmed them. Dates are `YYYY-MM-DD`; nationality ISO 3166 alpha-3. */
export interface VerifiedPerson {
  firstName: string;
  middleName: string | null;
  lastName: string;
  dateOfBirth: string | null;
  idType: IdType;
  idNumber: string;
  documentExpiry: string | null;
  nationality: string | null;
  /** Which photo the selfie was matched with (a fifth to a third of registry records carry none). */
  faceComparedWith: 'registry_photo' | 'id_document_photo' | null;
}

/** A director or owner as the registry names them, with the result of their own verification when one was made. */
export interface VerifiedBusinessPerson {
  name: string;
  role: string | null;
  /** Their own kyc session (directors verify by link: docs/decisions.md#directors) and its status. */
  sessionId: string | null;
  status: string | null;
  /** Beneficial owners: the share held, in percent, when the registry says. */
  shareholdingPercent?: number | null;
}

export interface VerifiedBusiness {
  registeredName: string;
  registrationNumber: string;
  /** The registry's status: `registered`, `dissolved`, ... */
  status: string;
  registrationDate: string | null;
  directors: VerifiedBusinessPerson[];
  beneficialOwners: VerifiedBusinessPerson[];
}

export type VerifiedOutputs = { type: 'kyc'; person: VerifiedPerson } | { type: 'kyb'; business: VerifiedBusiness };

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
