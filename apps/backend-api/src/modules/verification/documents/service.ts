import { randomUUID } from 'node:crypto';
import {
  type ApiKeyOwner,
  type Database,
  type DatabaseExecutor,
  type DocumentKind,
  type IdType,
  type Transaction,
  unitOfWorkIn,
  type VerificationDocument,
  type VerificationSession,
  type VerificationStatus,
} from '@platform/db';
import { checkDocumentFile, DocumentFileRefusal } from '@platform/document-checks';
import type { DocumentVault } from '@platform/document-vault';
import { AppError, conflict, notFound, type ValidationDetail, validationError } from '@platform/errors';
import { findOrganization } from '@platform/organizations';
import {
  finalStatuses,
  openSubmittedDetails,
  type SessionDecision,
  type SubmittedDetails,
  submittedDetailsKey,
} from '@platform/verification-lifecycle';
import { eraseCheckEvidence, policyNamed, recordChecks } from '../checks/index.js';
import type { SubmissionListener } from '../decisions/index.js';
import { type LifecycleOptions, moveSession, readAnySession, readOwnerSession, SESSION_NOT_FOUND } from '../index.js';
import {
  acceptedFilesFor,
  documentKindsFor,
  isDocumentKindOf,
  missingDocumentKinds,
  replacesEarlierOfKind,
} from './document-kinds.js';
import { ownChecks } from './own-checks.js';
import {
  insertDocument,
  listCurrentDocuments,
  lockSession,
  markPersonalDataErased,
  recordSubmission,
  supersedeDocuments,
} from './repository.js';
import { assertAskedFor, kindsStillToResend, resubmissionOf } from './resubmission.js';
import { checkSubmittedDetails, givesDetails, type SubmissionInput } from './submitted-details.js';
import { decideByTestValue } from './test-values.js';

// Capture (documents and details), submission and erasure of a session's personal data
// (docs/decisions.md#capture-by-api, docs/decisions.md#personal-data-erasure). The API calls these with the key's
// owner; the hosted page, where the session id is the credential, calls them without one.

/** Which session: by id, and with an owner only if it is that owner's (else not found, like any unknown id). */
export interface SessionRef {
  sessionId: string;
  owner?: ApiKeyOwner | undefined;
}

/** The statuses in which a person is still sending documents and details. */
const capturingStatuses: readonly VerificationStatus[] = ['pending', 'requires_input'];

function assertCapturing(session: VerificationSession, what: string): void {
  if (!capturingStatuses.includes(session.status)) {
    throw conflict(`A ${session.status} verification session takes no more ${what}: only pending or requires_input`);
  }
}

/** Where a session's files live in the vault: everything under it is the session's, and erased with it. */
function sessionPrefix(session: Pick<VerificationSession, 'type' | 'id'>): string {
  return `${session.type}/${session.id}/`;
}

async function sessionOf(db: DatabaseExecutor, { sessionId, owner }: SessionRef): Promise<VerificationSession> {
  if (owner !== undefined) return readOwnerSession(db, owner, sessionId);
  const session = await readAnySession(db, sessionId);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  return session;
}

/**
 * The session a document is about to be sent to, before the file is read: 404 for an unknown or another owner's
 * session, 409 unless it is pending or requires_input.
 */
export async function sessionTakingDocuments(db: DatabaseExecutor, ref: SessionRef): Promise<VerificationSession> {
  const session = await sessionOf(db, ref);
  assertCapturing(session, 'documents');
  return session;
}

export interface CapturedDocument {
  session: VerificationSession;
  kind: string | undefined;
  bytes: Buffer;
  now: Date;
}

/**
 * Checks the file by its content, stores it encrypted under `<type>/<sessionId>/<documentId>`, and records it in
 * one transaction that holds the session's lock: a newer document of a kind replaces the earlier one (director
 * IDs add up). While a requires_input decision names documents to send again, any other kind is a 409, and the
 * first of an asked-for kind sent for the decision replaces every earlier one of its kind, director IDs included
 * (docs/decisions.md#resubmission). A file the checks refuse is never stored; a session that stopped taking
 * documents (or this kind) while the file was being stored gets its 409 and the stored file is erased again.
 */
export async function captureDocument(
  db: Database,
  vault: DocumentVault,
  { session, kind, bytes, now }: CapturedDocument,
): Promise<VerificationDocument> {
  if (kind === undefined || !isDocumentKindOf(session.type, kind)) {
    const kinds = documentKindsFor(session.type).join(', ');
    throw validationError(`kind must be one of ${kinds} for a ${session.type} session`, [
      { path: '/kind', message: kind === undefined ? 'is required' : `must be one of ${kinds}` },
    ]);
  }
  assertAskedFor(session, kind);
  const file = await checkedFile(bytes, session);
  const id = randomUUID();
  const stored = await vault.store({
    key: `${sessionPrefix(session)}${id}`,
    bytes: file.bytes,
    contentType: file.contentType,
  });
  try {
    return await db.transaction(async (tx) => {
      const locked = await lockSession(tx, session.id, undefined);
      if (locked === undefined) throw notFound(SESSION_NOT_FOUND);
      assertCapturing(locked, 'documents');
      assertAskedFor(locked, kind);
      if (replacesEarlierOfKind(kind) || (await startsResentSet(tx, locked, kind))) {
        await supersedeDocuments(tx, session.id, kind, now);
      }
      return insertDocument(tx, {
        id,
        sessionId: session.id,
        kind,
        contentType: file.contentType,
        sizeBytes: stored.size,
        sha256: stored.sha256,
        storageKey: stored.key,
        encryptionKeyId: stored.keyId,
        createdAt: now,
      });
    });
  } catch (error) {
    await vault.erase(stored.key);
    throw error;
  }
}

/** Whether this is the first document of an asked-for kind sent for the decision: it replaces the earlier set. */
async function startsResentSet(tx: Transaction, session: VerificationSession, kind: DocumentKind): Promise<boolean> {
  const resubmission = await resubmissionOf(tx, session);
  if (resubmission === undefined || !resubmission.kinds.includes(kind)) return false;
  return kindsStillToResend(resubmission, await listCurrentDocuments(tx, session.id)).includes(kind);
}

async function checkedFile(bytes: Buffer, session: VerificationSession) {
  try {
    return await checkDocumentFile(bytes, acceptedFilesFor(session.type));
  } catch (error) {
    if (!(error instanceof DocumentFileRefusal)) throw error;
    // The refusal stays the cause: the hosted page says its reason in the page's language.
    if (error.status === 415) throw new AppError('unsupported_media_type', error.message, { cause: error });
    if (error.status === 413) throw new AppError('payload_too_large', error.message, { cause: error });
    throw new AppError('validation_error', error.message, {
      details: [{ path: '/file', message: error.message }],
      cause: error,
    });
  }
}

/** The session's current documents (metadata only): 404 for an unknown or another owner's session. */
export async function listDocuments(db: DatabaseExecutor, ref: SessionRef): Promise<VerificationDocument[]> {
  const session = await sessionOf(db, ref);
  return listCurrentDocuments(db, session.id);
}

/** The lifecycle's options, and who hears of a submission in its transaction. */
export interface SubmissionOptions extends LifecycleOptions {
  /** An automated decision source records its job here (docs/decisions.md#automated-decisions). */
  submissions?: SubmissionListener | undefined;
}

/**
 * The submitted session, and the decision a test ID number made of it in the same transaction, which the caller
 * reports to `onDecided` after its commit (docs/decisions.md#test-values).
 */
export interface SubmittedSession {
  session: VerificationSession;
  decision?: SessionDecision;
}

export interface SubmissionRequest extends SessionRef {
  input: SubmissionInput;
  /** `api_key:<id>` or `hosted_page`. */
  actor: string;
  now: Date;
}

/**
 * Submits the session for a decision in the caller's transaction: 404 (unknown, another owner's), 409 (not pending
 * or requires_input), 400 listing every missing or invalid detail, every missing document and, when a requires_input
 * decision named documents, each of them not sent again; else the details are sealed onto the session and it moves
 * to processing through the lifecycle, and the decision source hears of it in the same transaction. In
 * requires_input the details may be left out: the sealed ones of the previous submission are kept
 * (docs/decisions.md#resubmission).
 */
export async function submitSession(
  tx: Transaction,
  vault: DocumentVault,
  request: SubmissionRequest,
  { submissions, ...lifecycle }: SubmissionOptions,
): Promise<SubmittedSession> {
  const session = await lockSession(tx, request.sessionId, request.owner);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  assertCapturing(session, 'submissions');

  const kept = keptDetailsOf(vault, session, request.input);
  const { details, idType, problems } =
    kept === undefined ? checkSubmittedDetails(session.type, request.input, request.now) : keptAsChecked(kept);
  const documents = await listCurrentDocuments(tx, session.id);
  const present = new Set<DocumentKind>(documents.map(({ kind }) => kind));
  const missing = missingDocumentKinds(session.requiredDocuments, present, idType);
  problems.push(...missing.map((kind) => ({ path: `/documents/${kind}`, message: 'is required: upload it first' })));
  const resubmission = await resubmissionOf(tx, session);
  const notResent = resubmission === undefined ? [] : kindsStillToResend(resubmission, documents);
  for (const kind of notResent.filter((kind) => !missing.includes(kind))) {
    problems.push({ path: `/documents/${kind}`, message: 'must be sent again' });
  }
  if (details === undefined || problems.length > 0) {
    const what = [
      missing.length > 0 ? `; missing documents: ${missing.join(', ')}` : '',
      notResent.length > 0 ? `; documents to send again: ${notResent.join(', ')}` : '',
    ].join('');
    throw validationError(`The session cannot be submitted yet${what}`, problems);
  }

  const sealed =
    kept === undefined
      ? vault.seal({
          key: submittedDetailsKey(session),
          bytes: Buffer.from(JSON.stringify(details)),
          contentType: 'application/json',
        }).sealed
      : kept.sealed;
  await recordSubmission(tx, session.id, sealed, request.now);
  // The move's consequences are written before the decision source hears of it, which reads the session as moved.
  const { session: moved } = await unitOfWorkIn(tx, (work) =>
    moveSession(work, { sessionId: session.id, to: 'processing', actor: request.actor, now: request.now }, lifecycle),
  );
  // This service's own checks, whatever decides the session (docs/decisions.md#own-checks).
  const policy = policyNamed((await findOrganization(tx, session.organizationId))?.verificationPolicy);
  const own = await ownChecks(tx, vault, moved, details, { policy, now: request.now });
  await recordChecks(tx, vault, moved, request.now, own, request.now);
  await submissions?.submitted(tx, moved, request.now);
  // A test session submitted with a test ID number is decided from it now (docs/decisions.md#test-values).
  const decided = await decideByTestValue(tx, vault, { session: moved, details, now: request.now }, lifecycle);
  if (decided === undefined) return { session: moved };
  return decided.decision === undefined ? { session: decided.session } : decided;
}

/**
 * The details of the previous submission, when a requires_input session is submitted without any: opened from
 * their seal to know the ID type the documents are checked against, and kept as they are. Undefined when details
 * were given (they are checked and replace the earlier ones) or there are none to keep.
 */
function keptDetailsOf(
  vault: DocumentVault,
  session: VerificationSession,
  input: SubmissionInput,
): { details: SubmittedDetails; sealed: Buffer } | undefined {
  if (session.status !== 'requires_input' || session.submittedDetails === null || givesDetails(input)) {
    return undefined;
  }
  const details = openSubmittedDetails(vault, session);
  if (details === undefined) return undefined;
  return { details, sealed: Buffer.from(session.submittedDetails) };
}

function keptAsChecked({ details }: { details: SubmittedDetails }): {
  details: SubmittedDetails;
  idType: IdType | undefined;
  problems: ValidationDetail[];
} {
  return { details, idType: details.type === 'kyc' ? details.idType : undefined, problems: [] };
}

/**
 * Erases a final session's documents and submitted details, and the IP address and user agent of its consents
 * (docs/decisions.md#personal-data-erasure): the files first, then the rows say so; the session, its status and its
 * money stay, and so do the time, text version and locale of each consent. 404 for an unknown or another owner's
 * session, 409 while it is not final. Repeating it is harmless and answers the same session.
 */
export function erasePersonalData(
  db: Database,
  vault: DocumentVault,
  request: SessionRef & { now: Date },
): Promise<VerificationSession> {
  return db.transaction((tx) => erasePersonalDataIn(tx, vault, request));
}

/**
 * erasePersonalData in the caller's transaction (the retention job's, which claimed the session): the session is
 * locked before its files go, so an erasure by request and one by the job take turns and the second finds the
 * first's marks (and no files). A failure after the files went rolls the marks back; the next erasure repairs that.
 */
export async function erasePersonalDataIn(
  tx: Transaction,
  vault: DocumentVault,
  { sessionId, owner, now }: SessionRef & { now: Date },
): Promise<VerificationSession> {
  const session = await lockSession(tx, sessionId, owner);
  if (session === undefined) throw notFound(SESSION_NOT_FOUND);
  assertFinal(session);
  await vault.eraseAll(sessionPrefix(session));
  // The checks' sealed evidence and the verified data go with the documents; outcomes and summaries stay.
  await eraseCheckEvidence(tx, session.id);
  return markPersonalDataErased(tx, session, now);
}

function assertFinal(session: VerificationSession): void {
  if (finalStatuses.includes(session.status)) return;
  throw conflict(
    session.status === 'processing'
      ? 'A processing verification session is being decided: erase its personal data once it has a result'
      : `A ${session.status} verification session is still open: cancel it first, then erase its personal data`,
  );
}
