import type { DatabaseExecutor, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { checkEvidenceKey, verifiedOutputsKey } from './lifecycle.js';
import { listDirectorResults, listReviewChecks } from './review-check-repository.js';
import { openSubmittedDetails } from './submitted-details.js';
import type { VerifiedOutputs } from './verified-outputs.js';

// What a verified session verified (docs/decisions.md#verified-data), written with its verified decision by
// whatever made it (Smile ID's conclusion, a test value, a reviewer's approval): the registry's (or the document's)
// record of the person, the business registry's of a company, read from the current submission's sealed checks'
// evidence, and what the person stated where no check saw more. One derivation for every decision source, so a
// session a reviewer approves answers the same shape as one Smile ID verified.

type Vault = Pick<DocumentVault, 'seal' | 'open'>;
type Evidence = Record<string, unknown>;
type SessionOfOutputs = Pick<VerificationSession, 'id' | 'type' | 'submittedAt' | 'submittedDetails'>;

const text = (evidence: Evidence | undefined, key: string): string | null =>
  typeof evidence?.[key] === 'string' && evidence[key] !== '' ? (evidence[key] as string) : null;

function openJson<T>(vault: Pick<Vault, 'open'>, key: string, sealed: Uint8Array): T {
  return JSON.parse(vault.open(key, Buffer.from(sealed)).bytes.toString('utf8')) as T;
}

/**
 * What was verified, opened from the session's sealed column: undefined before a verified decision and after
 * erasure. The one opening of it, for backend-api's API keys and export and main-api's members.
 */
export function openVerifiedOutputs(
  vault: Pick<DocumentVault, 'open'>,
  session: Pick<VerificationSession, 'id' | 'type' | 'verifiedOutputs'>,
): VerifiedOutputs | undefined {
  if (session.verifiedOutputs === null) return undefined;
  return openJson<VerifiedOutputs>(vault, verifiedOutputsKey(session), session.verifiedOutputs);
}

/** The verified data of the session's current submission; undefined when it has no submitted details (erased). */
export async function verifiedOutputsOf(
  db: DatabaseExecutor,
  vault: Vault,
  session: SessionOfOutputs,
): Promise<VerifiedOutputs | undefined> {
  const details = openSubmittedDetails(vault, session);
  if (details === undefined) return undefined;
  const rows = (await listReviewChecks(db, session.id)).filter(
    (row) => session.submittedAt !== null && row.submittedAt.getTime() === session.submittedAt.getTime(),
  );
  const latest = (kind: string) => rows.filter((row) => row.kind === kind).at(-1);
  const evidenceOf = (kind: string): Evidence | undefined => {
    const row = latest(kind);
    return row?.evidence === null || row === undefined
      ? undefined
      : openJson<Evidence>(vault, checkEvidenceKey(session, row.id), row.evidence);
  };
  if (details.type === 'kyb') {
    const business = evidenceOf('business_registry');
    const listed = (key: string) => (Array.isArray(business?.[key]) ? (business[key] as Evidence[]) : []);
    // Each director the registry named has a session of their own, made in the registry's order; an owner who is
    // also a director shares it (matched by the registry's name).
    const sessions = await listDirectorResults(db, session.id);
    const directorNames = listed('directors').map((person) => text(person, 'name'));
    const people = (key: string) =>
      listed(key).map((person, index) => {
        const name = text(person, 'name') ?? '';
        const at = key === 'directors' ? index : directorNames.indexOf(name);
        const own = at >= 0 ? sessions[at] : undefined;
        return {
          name,
          role: text(person, 'role'),
          sessionId: own?.id ?? null,
          status: own?.status ?? null,
          shareholdingPercent: typeof person.shareholdingPercent === 'number' ? person.shareholdingPercent : null,
        };
      });
    return {
      type: 'kyb',
      business: {
        registeredName: text(business, 'registeredName') ?? details.companyName ?? null,
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
  const recorded = fullName?.split(/\s+/).filter((each) => each !== '');
  const comparedWith = latest('face_match')?.details as { comparedWith?: unknown } | undefined;
  return {
    type: 'kyc',
    person: {
      // The record's names when a registry or document gave them, else the names the person stated.
      firstName: recorded === undefined ? (details.firstName ?? null) : (recorded[0] ?? null),
      middleName:
        recorded === undefined
          ? (details.middleName ?? null)
          : recorded.length > 2
            ? recorded.slice(1, -1).join(' ')
            : null,
      lastName:
        recorded === undefined ? (details.lastName ?? null) : recorded.length > 1 ? (recorded.at(-1) ?? null) : null,
      dateOfBirth: text(registry, 'dateOfBirth') ?? text(document, 'dateOfBirth') ?? details.dateOfBirth ?? null,
      idType: details.idType,
      idNumber: text(registry, 'idNumber') ?? text(document, 'idNumber') ?? details.idNumber,
      documentExpiry:
        text(document, 'expirationDate') ?? text(registry, 'expirationDate') ?? details.documentExpiry ?? null,
      // A Kenyan national ID is held by Kenyans alone; other documents' nationality is what was stated.
      nationality: details.idType === 'national_id' ? 'KEN' : (details.nationality ?? null),
      faceComparedWith:
        comparedWith?.comparedWith === 'registry_photo' || comparedWith?.comparedWith === 'id_document_photo'
          ? comparedWith.comparedWith
          : null,
    },
  };
}

/**
 * What the session verified, derived and sealed for its verified decision's move (`MoveRequest.verifiedOutputs`),
 * read in the decision's transaction from the session as read in it; undefined when it has no submitted details.
 */
export async function sealedVerifiedOutputs(
  tx: DatabaseExecutor,
  vault: Vault,
  session: SessionOfOutputs,
): Promise<Uint8Array | undefined> {
  const outputs = await verifiedOutputsOf(tx, vault, session);
  if (outputs === undefined) return undefined;
  return vault.seal({
    key: verifiedOutputsKey(session),
    bytes: Buffer.from(JSON.stringify(outputs)),
    contentType: 'application/json',
  }).sealed;
}
