import {
  documentKinds,
  sessionErrorCodes,
  sessionLocales,
  verificationStatuses,
  verificationTypes,
} from '@platform/db';
import { nullable, singleLineName, stringEnum } from '@platform/http';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { requiredDocumentKinds } from '@platform/verification-lifecycle';
import { type Static, Type } from '@sinclair/typebox';
import { SessionCheckSchema, VerifiedOutputsSchema } from './verified-data-schemas.js';

const DEFAULT_PAGE_SIZE = 20;
const MAX_URL_LENGTH = 2048;

const typeDescription = '`kyc` verifies a person, `kyb` a business (the documents asked for differ).';
const statusDescription =
  '`pending` at creation; `processing` while documents are checked; `requires_input` when the end user must ' +
  'submit again; then `verified`, `rejected`, `expired` (24 h without a result) or `canceled`.';
const localeDescription = 'The language of the hosted page: `en` English, `sw` Kiswahili.';
// Input as unions of literals (their refusals name the allowed values); the answer as enums (serializable-schemas).
const VerificationType = Type.Union(
  verificationTypes.map((type) => Type.Literal(type)),
  { description: typeDescription },
);
const VerificationStatus = Type.Union(
  verificationStatuses.map((status) => Type.Literal(status)),
  { description: statusDescription },
);
const SessionLocale = (options: { default?: string } = {}) =>
  Type.Union(
    sessionLocales.map((locale) => Type.Literal(locale)),
    { description: localeDescription, ...options },
  );
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

const VerificationSessionSchema = Type.Object(
  {
    sessionId: Type.String({ format: 'uuid' }),
    verificationUrl: Type.String({
      description:
        'The hosted verification page, `{verify_url}/session/<sessionId>`; pass it unchanged to the front end.',
    }),
    type: stringEnum(verificationTypes, { description: typeDescription }),
    environment: stringEnum(['live', 'test'] as const, {
      description: 'The environment of the API key that created it.',
    }),
    status: stringEnum(verificationStatuses, { description: statusDescription }),
    externalEndUserId: Type.String({ description: 'Your identifier of the end user or company.' }),
    appName: nullable(Type.String(), { description: 'Shown to the end user on the hosted page.' }),
    callbackUrl: nullable(Type.String(), {
      description: "Where this session's events are sent; null means the organization's default endpoint.",
    }),
    locale: stringEnum(sessionLocales, { description: localeDescription }),
    returnUrl: nullable(Type.String(), {
      description: 'Where the hosted page sends the person once the session is final; null when not given.',
    }),
    privacyNoticeUrl: nullable(Type.String(), {
      description: "Your privacy notice, linked from the hosted page's consent notice; null when not given.",
    }),
    requiredDocuments: Type.Array(stringEnum(requiredDocumentKinds), {
      description: 'The documents the end user is asked for.',
    }),
    lastError: nullable(Type.String(), {
      description:
        'Why the last submission was rejected or needs more input, or why the service ended the session, in words ' +
        'for the person.',
    }),
    lastErrorCode: nullable(stringEnum(sessionErrorCodes), {
      description:
        'What lastError is, for your code, when the service ended the session for a reason of its own: ' +
        '`consent_declined` (the person did not agree to the consent notice on the hosted page; the session is ' +
        'canceled and its hold released). null otherwise.',
    }),
    resubmitDocuments: nullable(Type.Array(stringEnum(documentKinds)), {
      description:
        'While `requires_input`: the document kinds (as uploaded, such as `selfie` or `director_id`) the decision ' +
        'asks to be sent again, `lastError` saying why. Until the next submit only these kinds are taken (another ' +
        'is a 409), the first one of a kind sent replaces the earlier ones (every `director_id` when director IDs ' +
        'are asked for), and submit needs each of them sent again; the details submitted before are kept unless ' +
        'new ones are sent. null in every other status, and when the decision named no documents (then any ' +
        'document may be replaced).',
    }),
    price: Type.Integer({ description: 'Whole KES held from the wallet for this session.' }),
    createdAt: Timestamp('ISO 8601, UTC.'),
    updatedAt: Timestamp('When the status or any field last changed.'),
    expiresAt: Timestamp('A session still pending or awaiting input at this time expires and its hold is released.'),
    completedAt: nullable(Timestamp('When it reached a final status.')),
    submittedAt: nullable(Timestamp('When documents and details were last submitted for a decision.')),
    personalDataErasedAt: nullable(
      Timestamp('When its documents and submitted details were erased; the session and its money history stay.'),
    ),
  },
  { $id: 'VerificationSession', additionalProperties: false },
);
export type VerificationSessionView = Static<typeof VerificationSessionSchema>;

export const CreateVerificationSessionBody = Type.Object(
  {
    type: VerificationType,
    externalEndUserId: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Your own identifier of the end user or company, 1-255 characters.',
    }),
    appName: Type.Optional(
      singleLineName({
        minLength: 1,
        maxLength: 100,
        description: 'Your application name, 1-100 characters on one line, shown to the end user.',
      }),
    ),
    callbackUrl: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_URL_LENGTH,
        description:
          "An absolute https URL that receives this session's signed events. Omit it to use the organization's " +
          'default endpoint.',
      }),
    ),
    locale: Type.Optional(SessionLocale({ default: 'en' })),
    returnUrl: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_URL_LENGTH,
        description:
          'An absolute https URL the hosted page sends the person back to once the session is final, checked ' +
          'like `callbackUrl`.',
      }),
    ),
    privacyNoticeUrl: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: MAX_URL_LENGTH,
        description:
          "Your privacy notice: an absolute https URL, checked like `callbackUrl`. The hosted page's consent " +
          'notice links to it ("Read <appName>\'s privacy notice"); without it the notice mentions none.',
      }),
    ),
  },
  { $id: 'CreateVerificationSession' },
);

const sessionEnvelope = (id: string, withMessage: boolean) =>
  Type.Object(
    {
      success: Type.Literal(true),
      ...(withMessage ? { message: Type.String() } : {}),
      data: VerificationSessionSchema,
    },
    { $id: id, additionalProperties: false },
  );

export const VerificationSessionCreatedSchema = sessionEnvelope('VerificationSessionCreated', true);
export const VerificationSessionCanceledSchema = sessionEnvelope('VerificationSessionCanceled', true);

/** One session read by id: the session, its latest submission's checks and, when expanded, its verified data. */
const VerificationSessionDetailSchema = Type.Object(
  {
    ...VerificationSessionSchema.properties,
    checks: Type.Array(SessionCheckSchema, {
      description:
        'The checks of the latest submission, in the order they were made (empty before one). Their outcomes ' +
        'and summaries carry no personal data, and stay after erasure.',
    }),
    verifiedOutputs: Type.Optional(VerifiedOutputsSchema),
  },
  { additionalProperties: false },
);

export const VerificationSessionResponseSchema = sessionEnvelope('VerificationSessionResponse', false);
export const VerificationSessionDetailResponseSchema = Type.Object(
  { success: Type.Literal(true), data: VerificationSessionDetailSchema },
  { $id: 'VerificationSessionDetailResponse', additionalProperties: false },
);

export const VerificationSessionTestDecisionSchema = sessionEnvelope('VerificationSessionTestDecision', true);

/** The statuses a test decision moves a session to: the hosted page's sandbox buttons, one each. */
const testDecisionStatuses = ['processing', 'verified', 'rejected', 'requires_input'] as const;

export const TestDecisionBody = Type.Object(
  {
    status: Type.Union(
      testDecisionStatuses.map((status) => Type.Literal(status)),
      {
        description:
          "The status to move the session to, as the hosted page's sandbox buttons do: `processing` (Submit, from " +
          '`pending` or `requires_input`, no documents needed), then `verified` (Approve), `rejected` (Reject) or ' +
          '`requires_input` (Request resubmission), from `processing`.',
      },
    ),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          "With `rejected` or `requires_input` only: the session's `lastError`, shown on the hosted page and sent " +
          'in the callback. Without it the live default is used.',
      }),
    ),
    resubmitDocuments: Type.Optional(
      Type.Array(Type.Union(documentKinds.map((kind) => Type.Literal(kind))), {
        minItems: 1,
        maxItems: documentKinds.length,
        description: "With `requires_input` only: the document kinds to send again, kinds of the session's type.",
      }),
    ),
  },
  {
    $id: 'TestDecision',
    additionalProperties: false,
    examples: [{ status: 'requires_input', reason: 'The selfie is blurred', resubmitDocuments: ['selfie'] }],
  },
);
export type TestDecisionInput = Static<typeof TestDecisionBody>;

export const VerificationSessionIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The sessionId.' }),
});

export const ListVerificationSessionsQuery = Type.Object({
  status: Type.Optional(VerificationStatus),
  externalEndUserId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 255, description: 'Only the sessions of this end user or company.' }),
  ),
  ...pageQueryProperties(DEFAULT_PAGE_SIZE),
});

export const VerificationSessionListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        sessions: Type.Array(VerificationSessionSchema, { description: 'Newest first.' }),
        nextCursor: nextCursorSchema(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'VerificationSessionList', additionalProperties: false },
);
