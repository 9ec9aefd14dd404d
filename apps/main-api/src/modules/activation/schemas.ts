import { verificationStatuses } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

const activationStates = ['not_started', 'verifying', 'activated'] as const;

export const ActivationParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organization identifier (UUID).' }),
});

const ActivationSessionSchema = Type.Object(
  {
    sessionId: Type.String({ format: 'uuid', description: "The platform's KYB session of the organization." }),
    status: stringEnum(verificationStatuses, { description: "The session's status; verified activates." }),
    verificationUrl: nullable(Type.String({ format: 'uri' }), {
      description:
        'The hosted page where the owner gives the business details (registration number, company name) and ' +
        'documents (certificate of incorporation, CR12, KRA PIN certificate, directors’ IDs). Null when the ' +
        'service has no VERIFY_URL configured.',
    }),
    lastError: nullable(Type.String(), {
      description: 'Why it was rejected, or what to send again; null otherwise.',
    }),
    expiresAt: Type.String({ format: 'date-time', description: 'When an unfinished session expires.' }),
  },
  { additionalProperties: false },
);

const ActivationSchema = Type.Object(
  {
    state: stringEnum(activationStates, {
      description:
        'not_started: no verification open (none yet, or the last one rejected, expired or canceled); verifying: ' +
        'one is open or being decided; activated: live API keys and live top-ups are unlocked.',
    }),
    activatedAt: nullable(Type.String({ format: 'date-time' }), { description: 'When it was activated; null before.' }),
    reason: nullable(Type.String(), { description: 'Why live is locked and what to do; null once activated.' }),
    session: nullable(ActivationSessionSchema, {
      description: 'The latest activation session; null when none was started (or activated without one).',
    }),
  },
  { $id: 'OrganizationActivation', additionalProperties: false },
);

export type ActivationView = Static<typeof ActivationSchema>;

export const ActivationResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(ActivationSchema) },
  { $id: 'OrganizationActivationResponse', additionalProperties: false },
);

export const ActivationStartedSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(ActivationSchema) },
  { $id: 'OrganizationActivationStarted', additionalProperties: false },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const activationSharedSchemas = [ActivationSchema, ActivationResponseSchema, ActivationStartedSchema];
