import {
  type Database,
  type DocumentKind,
  documentKinds,
  type VerificationDocument,
  type VerificationSession,
} from '@platform/db';
import type { DocumentFileRefusal } from '@platform/document-checks';
import type { DocumentVault } from '@platform/document-vault';
import { isAppError, type ValidationDetail } from '@platform/errors';
import {
  captureDocument,
  checkSubmittedDetails,
  givesDetails,
  isSentFor,
  kindsStillToResend,
  listDocuments,
  missingDocumentKinds,
  type Resubmission,
  resubmissionOf,
  type SubmissionOptions,
  submitSession,
} from '../documents/index.js';
import type { Draft } from './draft.js';

// The hosted page's capture (docs/decisions.md#hosted-capture): the files of its form and the details typed into
// it go through the capture by API's own functions (captureDocument, submitSession), with the session id alone.
// What they refuse comes back as fixed codes per field, which the page says in its language.

/** The typed fields, in the form's order (the error summary lists them so). */
const detailFields = [
  'idType',
  'idNumber',
  'documentExpiry',
  'mrz',
  'firstName',
  'middleName',
  'lastName',
  'dateOfBirth',
  'nationality',
  'registrationNumber',
  'companyName',
] as const;
type DetailField = (typeof detailFields)[number];
export type CaptureField = DetailField | DocumentKind;

/**
 * What the page asks of every person although the API leaves it optional (docs/decisions.md#hosted-capture): the
 * names and date of birth the registry check compares, which a person has at hand. The API keeps them optional for
 * integrators who capture them elsewhere.
 */
const requiredOnPage = ['firstName', 'lastName', 'dateOfBirth'] as const;

const fieldProblems = [
  'required',
  'invalid',
  'unsupported_media_type',
  'too_large',
  'image_too_small',
  'too_many_pages',
  'unreadable',
  'resend',
] as const;
export type FieldProblem = (typeof fieldProblems)[number];

export interface FieldError {
  field: CaptureField;
  problem: FieldProblem;
}

const captureFields: readonly string[] = [...detailFields, ...documentKinds];

/** Field errors as they travel in the page's URL: `idNumber.invalid,selfie.image_too_small`. */
export function encodeFieldErrors(errors: readonly FieldError[]): string {
  return errors.map(({ field, problem }) => `${field}.${problem}`).join(',');
}

/** The field errors of a URL; anything that is not a known field and problem is ignored. */
export function parseFieldErrors(text: string | undefined): FieldError[] {
  if (text === undefined) return [];
  return text.split(',').flatMap((item) => {
    const [field = '', problem = ''] = item.split('.');
    const known = captureFields.includes(field) && (fieldProblems as readonly string[]).includes(problem);
    return known ? [{ field: field as CaptureField, problem: problem as FieldProblem }] : [];
  });
}

/** The file inputs of a session's form, one per document kind its requiredDocuments need, in the page's order. */
export function formKindsOf(session: VerificationSession): DocumentKind[] {
  return (session.requiredDocuments as string[]).flatMap((required): DocumentKind[] => {
    switch (required) {
      case 'national_id_or_passport':
        return ['id_document_front', 'id_document_back'];
      case 'selfie':
        return ['selfie'];
      case 'director_ids':
        return ['director_id'];
      case 'certificate_of_incorporation':
      case 'cr12':
      case 'kra_pin_certificate':
        return [required];
      default:
        return [];
    }
  });
}

/** A file from the form: its bytes, or that it was cut at the size limit. */
export type FormFile = { kind: DocumentKind; bytes: Buffer } | { kind: DocumentKind; tooLarge: true };

export type CaptureOutcome = { moved: true } | { moved: false; errors: FieldError[] };

/**
 * Captures each file through captureDocument (a refused one is not stored and is named with its reason), checks
 * the typed details as submission will, and names every document the session still lacks (or, when its decision
 * named documents, each of them not sent again). No errors: the review step comes next. A session that stopped
 * taking documents meanwhile, or a file of a kind its decision does not ask for (a form from before the decision):
 * `moved`, and nothing is stored.
 */
export async function captureFromPage(
  db: Database,
  vault: DocumentVault,
  { session, files, draft, now }: { session: VerificationSession; files: FormFile[]; draft: Draft; now: Date },
): Promise<CaptureOutcome> {
  const resubmission = await resubmissionOf(db, session);
  if (resubmission !== undefined && files.some((file) => !resubmission.kinds.includes(file.kind))) {
    return { moved: true };
  }
  const errors: FieldError[] = [];
  const refused = new Set<DocumentKind>();
  for (const file of files) {
    if (refused.has(file.kind)) continue;
    if ('tooLarge' in file) {
      errors.push({ field: file.kind, problem: 'too_large' });
      refused.add(file.kind);
      continue;
    }
    try {
      await captureDocument(db, vault, { session, kind: file.kind, bytes: file.bytes, now });
    } catch (error) {
      if (isAppError(error) && error.code === 'conflict') return { moved: true };
      const reason = refusalReasonOf(error);
      if (reason === undefined) throw error;
      errors.push({ field: file.kind, problem: reason });
      refused.add(file.kind);
    }
  }
  const details = detailsFor(session, draft);
  const keepsDetails = detailsKeptFor(session, resubmission) && !givesDetails(details);
  const { problems, idType } = keepsDetails
    ? { problems: [], idType: undefined }
    : checkSubmittedDetails(session.type, details, now);
  const lackingOnPage: FieldError[] =
    session.type === 'kyc' && !keepsDetails
      ? requiredOnPage.filter((field) => details[field] === undefined).map((field) => ({ field, problem: 'required' }))
      : [];
  errors.push(...inFormOrder([...problems.flatMap(detailError), ...lackingOnPage]));
  const documents = await listDocuments(db, { sessionId: session.id });
  const lacking: FieldError[] =
    resubmission === undefined
      ? missingDocumentKinds(
          session.requiredDocuments as string[],
          new Set(documents.map(({ kind }) => kind)),
          idType,
        ).map((kind) => ({ field: kind, problem: 'required' }))
      : kindsStillToResend(resubmission, documents).map((kind) => ({ field: kind, problem: 'resend' }));
  errors.push(...lacking.filter(({ field }) => !refused.has(field as DocumentKind)));
  return { moved: false, errors };
}

/**
 * Whether the page leaves out the details: a decision named the documents to send again and the previous
 * submission's details are on the session, so submitting without any keeps them.
 */
function detailsKeptFor(session: VerificationSession, resubmission: Resubmission | undefined): boolean {
  return resubmission !== undefined && session.submittedDetails !== null;
}

export type SubmitOutcome = { submitted: true } | { submitted: false; moved: boolean; errors: FieldError[] };

/** Submits the session through submitSession (actor `hosted_page`); what it refuses comes back per field. */
export async function submitFromPage(
  db: Database,
  vault: DocumentVault,
  { session, draft, now }: { session: VerificationSession; draft: Draft; now: Date },
  options: SubmissionOptions,
): Promise<SubmitOutcome> {
  try {
    const { decision } = await db.transaction((tx) =>
      submitSession(
        tx,
        vault,
        { sessionId: session.id, input: detailsFor(session, draft), actor: 'hosted_page', now },
        options,
      ),
    );
    // Committed: an automated decision source starts its job now, outside the transaction.
    options.submissions?.committed();
    // A test ID number's decision reaches the metrics once committed.
    if (decision !== undefined) options.onDecided?.(decision);
    return { submitted: true };
  } catch (error) {
    if (isAppError(error) && error.code === 'conflict') return { submitted: false, moved: true, errors: [] };
    if (isAppError(error) && error.code === 'validation_error') {
      return { submitted: false, moved: false, errors: (error.details ?? []).flatMap(detailError) };
    }
    throw error;
  }
}

/** What a decision asks the person to send again, as the page shows it. */
export interface PageResend {
  /** The asked-for kinds, in the form's order. */
  kinds: DocumentKind[];
  /** The current documents sent for the decision (they replaced the earlier ones of their kind). */
  sentAgain: VerificationDocument[];
  /** The previous submission's details are kept, so the form and the review do not ask for them. */
  detailsKept: boolean;
}

/** The session's current documents (metadata only), and what its decision asks to be sent again, if anything. */
export async function pageDocumentsOf(
  db: Database,
  session: VerificationSession,
): Promise<{ documents: VerificationDocument[]; resend: PageResend | undefined }> {
  const documents = await listDocuments(db, { sessionId: session.id });
  const resubmission = await resubmissionOf(db, session);
  if (resubmission === undefined) return { documents, resend: undefined };
  const resend = {
    kinds: formKindsOf(session).filter((kind) => resubmission.kinds.includes(kind)),
    sentAgain: documents.filter((document) => isSentFor(resubmission, document)),
    detailsKept: detailsKeptFor(session, resubmission),
  };
  return { documents, resend };
}

/**
 * Only the details of the session's type: a kyc form has no registration number, and the reverse. The form shows
 * the MRZ box whatever the ID type (it works without JavaScript), so what was typed there counts only for a
 * passport (or before a type is chosen, to be checked as one): a national ID with leftover lines is not refused.
 */
export function detailsFor(session: VerificationSession, draft: Draft): Draft {
  if (session.type === 'kyb') return { registrationNumber: draft.registrationNumber, companyName: draft.companyName };
  const { idType, idNumber, firstName, middleName, lastName, dateOfBirth, documentExpiry, nationality } = draft;
  const person = { idType, idNumber, firstName, middleName, lastName, dateOfBirth, documentExpiry, nationality };
  const takesMrz = idType === undefined || idType === 'passport';
  return takesMrz && draft.mrz !== undefined ? { ...person, mrz: draft.mrz } : person;
}

/** Detail errors in the form's order, whatever order the checks named them in. */
function inFormOrder(errors: FieldError[]): FieldError[] {
  const rank = (field: CaptureField) => detailFields.indexOf(field as DetailField);
  return [...errors].sort((a, b) => rank(a.field) - rank(b.field));
}

function detailError({ path, message }: ValidationDetail): FieldError[] {
  const [, first = '', second = ''] = path.split('/');
  const field = first === 'documents' ? second : first;
  if (!captureFields.includes(field)) return [];
  const problem: FieldProblem =
    message === 'must be sent again' ? 'resend' : message.startsWith('is required') ? 'required' : 'invalid';
  return [{ field: field as CaptureField, problem }];
}

function refusalReasonOf(error: unknown): FieldProblem | undefined {
  if (!isAppError(error)) return undefined;
  const cause = error.cause as DocumentFileRefusal | undefined;
  if (cause?.name === 'DocumentFileRefusal') return cause.reason;
  return undefined;
}
