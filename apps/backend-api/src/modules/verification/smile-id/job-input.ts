import type { Database, IdType, ProviderJobKind, VerificationDocument, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { openSubmittedDetails } from '@platform/verification-lifecycle';
import sharp from 'sharp';
import { listSessionChecks, openCheckEvidence } from '../checks/index.js';
import { listDocuments } from '../documents/index.js';
import type { SmileIdDocumentType, SmileIdJob, TypedPerson } from './client.js';

// What a session's Smile ID job carries (docs/decisions.md#smile-id-job-chain): Enhanced KYC the typed ID number,
// names and date of birth; Biometric KYC those and the selfie; Document Verification the selfie and the ID's photos;
// Business Verification the registration number; AML the person's registry name (or each director's). Read from the
// vault only for the call, never kept elsewhere.

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
  kind: ProviderJobKind,
  identity: { jobId: string; userId: string; callbackUrl: string },
): Promise<SmileIdJob> {
  const details = openSubmittedDetails(vault, session);
  if (details === undefined) throw new JobInputMissingError('The session has no submitted details');
  if (kind === 'aml_screening') return { kind, ...identity, people: await screenedPeople(db, vault, session) };
  if (details.type === 'kyb') {
    return { kind: 'business_verification', ...identity, registrationNumber: details.registrationNumber };
  }
  const typed: TypedPerson = {
    idType: smileIdDocumentTypes[details.idType],
    idNumber: details.idNumber,
    firstName: details.firstName,
    middleName: details.middleName,
    lastName: details.lastName,
    dateOfBirth: details.dateOfBirth,
  };
  if (kind === 'enhanced_kyc') return { kind, ...identity, ...typed };
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
  if (kind === 'biometric_kyc') {
    const selfie = await image('selfie');
    if (selfie === undefined) throw new JobInputMissingError('The session has no selfie');
    return { kind, ...identity, ...typed, selfie };
  }
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

/**
 * Who the AML Check screens: the person by the registry's (or the document's) name, else the typed one; for kyb each
 * director the business registry names. Read from the current submission's sealed check evidence.
 */
async function screenedPeople(
  db: Database,
  vault: DocumentVault,
  session: VerificationSession,
): Promise<Array<{ fullName: string; birthYear: string | undefined }>> {
  const rows = (await listSessionChecks(db, session.id)).filter(
    (row) => session.submittedAt !== null && row.submittedAt.getTime() === session.submittedAt.getTime(),
  );
  const evidenceOf = (kind: string) =>
    rows
      .filter((row) => row.kind === kind && row.evidence !== null)
      .map((row) => openCheckEvidence(vault, session, row))
      .at(-1);
  if (session.type === 'kyb') {
    const directors = evidenceOf('business_registry')?.directors;
    const names = Array.isArray(directors) ? directors.map((each) => (each as { name?: unknown }).name) : [];
    const people = names.filter((name): name is string => typeof name === 'string' && name !== '');
    if (people.length === 0) throw new JobInputMissingError('The business registry named no directors to screen');
    return people.map((fullName) => ({ fullName, birthYear: undefined }));
  }
  const found = evidenceOf('id_registry') ?? evidenceOf('document_authenticity');
  const details = openSubmittedDetails(vault, session);
  const typed =
    details?.type === 'kyc'
      ? [details.firstName, details.middleName, details.lastName].filter((each) => each !== undefined).join(' ')
      : '';
  const fullName = typeof found?.fullName === 'string' && found.fullName !== '' ? found.fullName : typed;
  if (fullName === '') throw new JobInputMissingError('No name to screen');
  const dob =
    typeof found?.dateOfBirth === 'string'
      ? found.dateOfBirth
      : details?.type === 'kyc'
        ? details.dateOfBirth
        : undefined;
  const birthYear = dob === undefined ? undefined : /^(\d{4})/.exec(dob)?.[1];
  return [{ fullName, birthYear }];
}
