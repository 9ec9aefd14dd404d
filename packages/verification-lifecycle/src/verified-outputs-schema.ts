import { idTypes } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { Type } from '@sinclair/typebox';

// The answer's schema of what a verification verified (docs/decisions.md#verified-data), the VerifiedOutputs type's:
// one schema for backend-api's `GET /v1/verify/sessions/:id` and main-api's `GET /v1/verification-sessions/:id`,
// both with `expand=verified_outputs`.

const DateOnly = (description: string) => nullable(Type.String({ format: 'date' }), { description });

const VerifiedPersonSchema = Type.Object(
  {
    firstName: nullable(Type.String(), {
      description: 'The registry or document record, else as the person stated; null when no one gave one.',
    }),
    middleName: nullable(Type.String()),
    lastName: nullable(Type.String()),
    dateOfBirth: DateOnly('YYYY-MM-DD.'),
    idType: stringEnum(idTypes),
    idNumber: Type.String(),
    documentExpiry: DateOnly('YYYY-MM-DD.'),
    nationality: nullable(Type.String(), { description: 'ISO 3166 alpha-3.' }),
    faceComparedWith: nullable(stringEnum(['registry_photo', 'id_document_photo'] as const)),
  },
  { additionalProperties: false },
);

const VerifiedBusinessPersonSchema = Type.Object(
  {
    name: Type.String(),
    role: nullable(Type.String()),
    sessionId: nullable(Type.String({ format: 'uuid' }), { description: 'Their own kyc session, when one was made.' }),
    status: nullable(Type.String()),
    shareholdingPercent: Type.Optional(nullable(Type.Number())),
  },
  { additionalProperties: false },
);

const VerifiedBusinessSchema = Type.Object(
  {
    registeredName: nullable(Type.String(), { description: "The registry's name, else as stated; null for neither." }),
    registrationNumber: Type.String(),
    status: Type.String({ description: 'The registry status: `registered`, `dissolved`, ...' }),
    registrationDate: DateOnly('YYYY-MM-DD.'),
    directors: Type.Array(VerifiedBusinessPersonSchema),
    beneficialOwners: Type.Array(VerifiedBusinessPersonSchema),
  },
  { additionalProperties: false },
);

/** `{type: 'kyc', person}`, `{type: 'kyb', business}` or null. */
export const VerifiedOutputsSchema = Type.Union(
  [
    Type.Object({ type: Type.Literal('kyc'), person: VerifiedPersonSchema }, { additionalProperties: false }),
    Type.Object({ type: Type.Literal('kyb'), business: VerifiedBusinessSchema }, { additionalProperties: false }),
    Type.Null(),
  ],
  {
    description:
      'Only with `expand=verified_outputs`: what the verification confirmed; null before a verified decision and ' +
      'after the personal data was erased.',
  },
);
