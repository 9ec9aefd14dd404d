import { verificationCheckKinds, verificationCheckOutcomes, verificationCheckSources } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { VerifiedOutputsSchema } from '@platform/verification-lifecycle';
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

/** What was verified: the schema is the lifecycle's, the type's own (main-api's members read it too). */
export { VerifiedOutputsSchema };

export type SessionCheckView = Static<typeof SessionCheckSchema>;
