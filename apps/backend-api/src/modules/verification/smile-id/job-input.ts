import type { Database, IdType, VerificationDocument, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import sharp from 'sharp';
import { listDocuments, openSubmittedDetails } from '../documents/index.js';
import type { SmileIdDocumentType, SmileIdJob } from './client.js';

// What a session's Smile ID job carries (docs/decisions.md#automated-decisions): kyc, the selfie and the ID's
// photos with the ID type (Document Verification with SmartSelfie); kyb, the registration number (Business
// Verification). Read from the vault only for the call, never kept elsewhere.

const smileIdDocumentTypes: Readonly<Record<IdType, SmileIdDocumentType>> = {
  national_id: 'NATIONAL_ID',
  passport: 'PASSPORT',
  alien_id: 'ALIEN_CARD',
};

/** What the job needs is missing (erased, never submitted): it cannot be sent, and a person decides instead. */
export class JobInputMissingError extends Error {
  override readonly name = 'JobInputMissingError';
}

export async function jobInputOf(
  db: Database,
  vault: DocumentVault,
  session: VerificationSession,
  identity: { jobId: string; userId: string; callbackUrl: string },
): Promise<SmileIdJob> {
  const details = openSubmittedDetails(vault, session);
  if (details === undefined) throw new JobInputMissingError('The session has no submitted details');
  if (details.type === 'kyb') {
    return { kind: 'business_verification', ...identity, registrationNumber: details.registrationNumber };
  }
  const documents = await listDocuments(db, { sessionId: session.id });
  const image = async (kind: VerificationDocument['kind']) => {
    // The newest of the kind counts (a resend replaces); kyc kinds have one current document each.
    const document = documents.filter((each) => each.kind === kind).at(-1);
    if (document === undefined) return undefined;
    const read = await vault.read(document.storageKey);
    if (read === null) throw new JobInputMissingError(`The session's ${kind} is no longer stored`);
    // Smile ID takes JPEG and PNG; a WebP photo is sent as a JPEG of the same picture.
    return read.contentType === 'image/webp' ? sharp(read.bytes).jpeg({ quality: 92 }).toBuffer() : read.bytes;
  };
  const [selfie, idFront, idBack] = await Promise.all([
    image('selfie'),
    image('id_document_front'),
    image('id_document_back'),
  ]);
  if (selfie === undefined || idFront === undefined) {
    throw new JobInputMissingError('The session has no selfie or no front of its ID document');
  }
  return {
    kind: 'document_verification',
    ...identity,
    idType: smileIdDocumentTypes[details.idType],
    selfie,
    idFront,
    idBack,
  };
}
