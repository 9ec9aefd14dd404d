import { type DocumentKind, documentKindsOf, type IdType, type VerificationType } from '@platform/db';
import type { DocumentAccept } from '@platform/document-checks';

// Which documents a session takes and which it needs before it can be submitted
// (docs/decisions.md#capture-by-api).

/** The document kinds a session of `type` takes. */
export function documentKindsFor(type: VerificationType): readonly DocumentKind[] {
  return documentKindsOf(type);
}

export function isDocumentKindOf(type: VerificationType, kind: string): kind is DocumentKind {
  return (documentKindsOf(type) as readonly string[]).includes(kind);
}

/** A person's documents are photos; a business's papers may also be PDFs (a scan of a director's ID too). */
export function acceptedFilesFor(type: VerificationType): DocumentAccept {
  return type === 'kyc' ? 'image' : 'image_or_pdf';
}

/** Every director sends an ID, so `director_id` documents add up; any other kind is replaced by a newer one. */
export function replacesEarlierOfKind(kind: DocumentKind): boolean {
  return kind !== 'director_id';
}

/** The kinds each of a session's requiredDocuments is met by (all of them, at least one of each). */
function kindsMeeting(required: string, idType: IdType | undefined): DocumentKind[] {
  switch (required) {
    case 'national_id_or_passport':
      // A passport's photo page is all there is; an ID card has two sides.
      return idType === 'passport' ? ['id_document_front'] : ['id_document_front', 'id_document_back'];
    case 'selfie':
      return ['selfie'];
    case 'director_ids':
      return ['director_id'];
    case 'certificate_of_incorporation':
    case 'cr12':
    case 'kra_pin_certificate':
      return [required];
    default:
      throw new Error(`Unknown required document ${JSON.stringify(required)}`);
  }
}

/** The kinds still missing for the session's required documents, given the kinds it has now. */
export function missingDocumentKinds(
  requiredDocuments: readonly string[],
  present: ReadonlySet<DocumentKind>,
  idType: IdType | undefined,
): DocumentKind[] {
  return requiredDocuments.flatMap((required) => kindsMeeting(required, idType)).filter((kind) => !present.has(kind));
}
