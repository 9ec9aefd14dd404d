import { idTypes, verificationCheckKinds, verificationCheckOutcomes, verificationCheckSources } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';

// What `GET /v1/verify/sessions/:id` adds to a session (docs/decisions.md#verified-data): its latest submission's
// checks, always, and on `expand=verified_outputs` what was verified.

/** The expansions the session's answer knows, Stripe-like: each asked for by name. */
const sessionExpansions = ['verified_outputs'] as const;

export const GetVerificationSessionQuery = Type.Object({
  expand: Type.Optional(
    Type.Union(
      sessionExpansions.map((expansion) => Type.Literal(expansion)),
      {
        description:
          '`verified_outputs` adds `verifiedOutputs`, the personal data the verification confirmed. Only for API ' +
          'keys given the permission `verified_data:read`; every such read is recorded in the audit log.',
      },
    ),
  ),
});

export const SessionCheckSchema = Type.Object(
  {
    kind: stringEnum(verificationCheckKinds),
    source: stringEnum(verificationCheckSources, {
      description: '`service`, `smile_id`, or `test` for test sessions.',
    }),
    outcome: stringEnum(verificationCheckOutcomes),
    code: nullable(Type.String(), { description: 'A stable code for a failure or an attention, else null.' }),
    summary: Type.String({ description: 'One line a person can read; never personal data.' }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: 'What the check found, such as scores and which fields matched; never personal data.',
    }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

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

export type SessionCheckView = Static<typeof SessionCheckSchema>;
