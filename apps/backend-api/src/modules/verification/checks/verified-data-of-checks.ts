import type { DatabaseExecutor, IdType, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { listSessionChecks } from './repository.js';
import { openCheckEvidence } from './service.js';
import type { VerifiedOutputs } from './verified-outputs.js';

// What a verified session verified (docs/decisions.md#verified-data): the registry's (or the document's) record of
// the person, the business registry's of a company, read from the current submission's sealed checks' evidence,
// whoever made them (Smile ID live, the test values' fake results in test mode).

type Evidence = Record<string, unknown>;

/** What the submission stated that the verified data falls back on (the documents module's SubmittedDetails). */
type StatedDetails =
  | {
      type: 'kyc';
      idType: IdType;
      idNumber: string;
      firstName?: string | undefined;
      middleName?: string | undefined;
      lastName?: string | undefined;
    }
  | { type: 'kyb'; registrationNumber: string };
const text = (evidence: Evidence | undefined, key: string): string | null =>
  typeof evidence?.[key] === 'string' && evidence[key] !== '' ? (evidence[key] as string) : null;

export async function verifiedOutputsOf(
  tx: DatabaseExecutor,
  vault: DocumentVault,
  session: VerificationSession,
  details: StatedDetails,
): Promise<VerifiedOutputs | undefined> {
  const rows = (await listSessionChecks(tx, session.id)).filter(
    (row) => session.submittedAt !== null && row.submittedAt.getTime() === session.submittedAt.getTime(),
  );
  const latest = (kind: string) => rows.filter((row) => row.kind === kind).at(-1);
  const evidenceOf = (kind: string) => {
    const row = latest(kind);
    return row === undefined ? undefined : openCheckEvidence(vault, session, row);
  };
  if (details.type === 'kyb') {
    const business = evidenceOf('business_registry');
    if (business === undefined) return undefined;
    const people = (key: string) =>
      (Array.isArray(business[key]) ? (business[key] as Evidence[]) : []).map((person) => ({
        name: text(person, 'name') ?? '',
        role: text(person, 'role'),
        sessionId: null,
        status: null,
        shareholdingPercent: typeof person.shareholdingPercent === 'number' ? person.shareholdingPercent : null,
      }));
    return {
      type: 'kyb',
      business: {
        registeredName: text(business, 'registeredName') ?? '',
        registrationNumber: text(business, 'registrationNumber') ?? details.registrationNumber,
        status: text(business, 'status') ?? 'unknown',
        registrationDate: text(business, 'registrationDate'),
        directors: people('directors'),
        beneficialOwners: people('beneficialOwners'),
      },
    };
  }
  const registry = evidenceOf('id_registry');
  const document = evidenceOf('document_authenticity');
  const fullName = text(registry, 'fullName') ?? text(document, 'fullName');
  const names = (fullName ?? [details.firstName, details.middleName, details.lastName].filter(Boolean).join(' '))
    .split(/\s+/)
    .filter((each) => each !== '');
  const comparedWith = latest('face_match')?.details as { comparedWith?: unknown } | undefined;
  return {
    type: 'kyc',
    person: {
      firstName: names[0] ?? '',
      middleName: names.length > 2 ? names.slice(1, -1).join(' ') : null,
      lastName: names.length > 1 ? (names.at(-1) ?? '') : '',
      dateOfBirth: text(registry, 'dateOfBirth') ?? text(document, 'dateOfBirth'),
      idType: details.idType,
      idNumber: text(registry, 'idNumber') ?? text(document, 'idNumber') ?? details.idNumber,
      documentExpiry: text(document, 'expirationDate') ?? text(registry, 'expirationDate'),
      // A Kenyan national ID is held by Kenyans alone; other documents' nationality is the MRZ's, read elsewhere.
      nationality: details.idType === 'national_id' ? 'KEN' : null,
      faceComparedWith:
        comparedWith?.comparedWith === 'registry_photo' || comparedWith?.comparedWith === 'id_document_photo'
          ? comparedWith.comparedWith
          : null,
    },
  };
}
