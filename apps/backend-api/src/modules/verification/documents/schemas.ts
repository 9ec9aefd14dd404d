import { documentContentTypes, documentKinds, idTypes } from '@platform/db';
import { singleLineName } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';

const DocumentKind = Type.Union(
  documentKinds.map((kind) => Type.Literal(kind)),
  {
    description:
      'kyc: `id_document_front`, `id_document_back` (not for a passport), `selfie`; kyb: ' +
      '`certificate_of_incorporation`, `cr12`, `kra_pin_certificate`, `director_id` (one per director).',
  },
);

const VerificationDocumentSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    kind: DocumentKind,
    contentType: Type.Union(
      documentContentTypes.map((type) => Type.Literal(type)),
      { description: 'What the file was found to be by its content (not its name or declared type).' },
    ),
    size: Type.Integer({ description: 'Bytes of the stored file (images are re-encoded without metadata).' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'VerificationDocument', additionalProperties: false },
);
export type VerificationDocumentView = Static<typeof VerificationDocumentSchema>;

export const VerificationDocumentCreatedSchema = Type.Object(
  { success: Type.Literal(true), data: VerificationDocumentSchema },
  { $id: 'VerificationDocumentCreated', additionalProperties: false },
);

export const VerificationDocumentListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({ documents: Type.Array(VerificationDocumentSchema) }, { additionalProperties: false }),
  },
  { $id: 'VerificationDocumentList', additionalProperties: false },
);

export const SessionDocumentsParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/**
 * One body for both types, checked against the session's type by the service, so that a missing field and a
 * missing document are reported together. Empty in requires_input: the previous submission's details are kept.
 */
export const SubmitVerificationSessionBody = Type.Object(
  {
    idType: Type.Optional(
      Type.String({
        maxLength: 32,
        description: `kyc: the identity document sent, one of ${idTypes.join(', ')}.`,
      }),
    ),
    idNumber: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'kyc: its number. national_id 6-9 digits; passport 6-9 letters and digits; alien_id 6-10 letters and digits.',
      }),
    ),
    firstName: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'kyc, optional: the first name as on the document (letters, spaces, hyphens, apostrophes).',
        examples: ['Amani'],
      }),
    ),
    middleName: Type.Optional(
      Type.String({ maxLength: 200, description: 'kyc, optional: any middle names.', examples: ['Njeri'] }),
    ),
    lastName: Type.Optional(
      Type.String({ maxLength: 200, description: 'kyc, optional: the surname.', examples: ['Otieno'] }),
    ),
    dateOfBirth: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'kyc, optional: `YYYY-MM-DD`, from 1900 to today (Nairobi).',
        examples: ['1994-05-17'],
      }),
    ),
    documentExpiry: Type.Optional(
      Type.String({
        maxLength: 32,
        description: "kyc, optional: the document's expiry date, `YYYY-MM-DD`.",
        examples: ['2031-08-30'],
      }),
    ),
    nationality: Type.Optional(
      Type.String({
        maxLength: 16,
        description: 'kyc, optional: ISO 3166 alpha-3 (a national ID is Kenyan: KEN).',
        examples: ['KEN'],
      }),
    ),
    mrz: Type.Optional(
      Type.String({
        maxLength: 200,
        description:
          "kyc with idType passport, optional: the passport's machine-readable zone as printed, its two lines of 44 " +
          'characters (A-Z, 0-9, <) separated by a newline.',
      }),
    ),
    registrationNumber: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'kyb: the Business Registration Service number, such as PVT-AB12CD3, BN-XY45Z67, CPR/2015/123456 or C.12345.',
      }),
    ),
    companyName: Type.Optional(
      singleLineName({ maxLength: 256, description: 'kyb, optional: the registered name, on one line.' }),
    ),
  },
  {
    $id: 'SubmitVerificationSession',
    additionalProperties: false,
    description:
      "The details of the session's type. A `requires_input` session may be submitted with none of them: the " +
      'details of its previous submission are kept; any given are checked as a whole and replace them.',
  },
);
