import {
  apiKeyEnvironments,
  decisionSourceKinds,
  documentKinds,
  sessionErrorCodes,
  sessionLocales,
  verificationStatuses,
  verificationTypes,
  webhookAttemptOutcomes,
  webhookEventStatuses,
} from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { VerifiedOutputsSchema } from '@platform/verification-lifecycle';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';
import { verifiedOutputsExamples } from './verified-data-examples.js';

// The organization's verification sessions as its members read them (docs/decisions.md#organization-session-list):
// each field as backend-api answers it to an API key, but the hosted page's URL.

/** The page size when none is asked for. */
const DEFAULT_PAGE_SIZE = 50;

const typeDescription = '`kyc` verifies a person, `kyb` a business (the documents asked for differ).';
const statusDescription =
  '`pending` at creation; `processing` while documents are checked; `requires_input` when the end user must ' +
  'submit again; then `verified`, `rejected`, `expired` (24 h without a result) or `canceled`.';
const environmentDescription = 'The environment of the API key that created it; live and test never mix.';
const Timestamp = (description: string) => Type.String({ format: 'date-time', description });
// Input as unions of literals (their refusals name the allowed values); the answers as enums.
const literals = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    { description },
  );
const periodBound = (description: string) =>
  Type.Optional(Type.String({ maxLength: 40, description, examples: ['2026-03-01', '2026-03-01T09:00:00Z'] }));

export const ListOrganizationSessionsQuery = Type.Object(
  {
    ...pageQueryProperties(DEFAULT_PAGE_SIZE),
    status: Type.Optional(literals(verificationStatuses, `Only sessions in this status. ${statusDescription}`)),
    type: Type.Optional(literals(verificationTypes, `Only sessions of this type. ${typeDescription}`)),
    environment: Type.Optional(literals(apiKeyEnvironments, 'Only live or only test sessions; both when omitted.')),
    from: periodBound(
      'Only sessions created at or after this: a date (that day in Nairobi, UTC+3) or a date-time with a time zone.',
    ),
    to: periodBound(
      'Only sessions created before this moment, or up to the end of this day (a date, in Nairobi); after `from`.',
    ),
    externalEndUserId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 255, description: 'Only the sessions of this end user or company.' }),
    ),
  },
  { additionalProperties: false },
);

/** The expansions the session's answer knows, as backend-api's: each asked for by name (docs/decisions.md#verified-data). */
const sessionExpansions = ['verified_outputs'] as const;

export const GetOrganizationSessionQuery = Type.Object(
  {
    expand: Type.Optional(
      Type.Union(
        sessionExpansions.map((expansion) => Type.Literal(expansion)),
        {
          description:
            '`verified_outputs` adds `verifiedOutputs`, the personal data the verification confirmed. Only for the ' +
            'roles with the permission `verifications:read_personal_data` (owner, admin); every such read is ' +
            'recorded in the audit log.',
        },
      ),
    ),
  },
  { additionalProperties: false },
);

export const OrganizationSessionParams = Type.Object(
  { id: Type.String({ format: 'uuid', description: 'The sessionId.' }) },
  { additionalProperties: false },
);

const OrganizationSessionSchema = Type.Object(
  {
    sessionId: Type.String({
      format: 'uuid',
      description: "The session's id, as backend-api and the callbacks name it. Also its hosted page's credential.",
    }),
    type: stringEnum(verificationTypes, { description: typeDescription }),
    environment: stringEnum(apiKeyEnvironments, { description: environmentDescription }),
    status: stringEnum(verificationStatuses, { description: statusDescription }),
    externalEndUserId: Type.String({ description: 'Your identifier of the end user or company.' }),
    appName: nullable(Type.String(), { description: 'Shown to the end user on the hosted page.' }),
    callbackUrl: nullable(Type.String(), {
      description: "Where this session's events are sent; null means the organization's default endpoint.",
    }),
    locale: stringEnum(sessionLocales, {
      description: 'The language of the hosted page: `en` English, `sw` Kiswahili.',
    }),
    returnUrl: nullable(Type.String(), {
      description: 'Where the hosted page sends the person once the session is final; null when not given.',
    }),
    privacyNoticeUrl: nullable(Type.String(), {
      description: "Your privacy notice, linked from the hosted page's consent notice; null when not given.",
    }),
    requiredDocuments: Type.Array(Type.String(), { description: 'The documents the end user is asked for.' }),
    lastError: nullable(Type.String(), {
      description:
        'Why the last submission was rejected or needs more input, or why the service ended the session, in words ' +
        'for the person.',
    }),
    lastErrorCode: nullable(stringEnum(sessionErrorCodes), {
      description: 'What lastError is when the service ended the session for a reason of its own; null otherwise.',
    }),
    resubmitDocuments: nullable(Type.Array(stringEnum(documentKinds)), {
      description: 'While `requires_input`: the document kinds the decision asks to be sent again; null otherwise.',
    }),
    price: Type.Integer({ description: 'Whole KES held from the wallet of its environment for this session.' }),
    createdAt: Timestamp('ISO 8601, UTC.'),
    updatedAt: Timestamp('When the status or any field last changed.'),
    expiresAt: Timestamp('A session still pending or awaiting input at this time expires and its hold is released.'),
    completedAt: nullable(Timestamp('When it reached a final status.')),
    submittedAt: nullable(Timestamp('When documents and details were last submitted for a decision.')),
    personalDataErasedAt: nullable(
      Timestamp('When its documents and submitted details were erased; the session and its money history stay.'),
    ),
  },
  { $id: 'OrganizationVerificationSession', additionalProperties: false },
);
export type OrganizationSessionView = Static<typeof OrganizationSessionSchema>;

const ActorSchema = Type.Object(
  {
    kind: Type.String({
      description:
        '`api_key` (a key of the organization), `member` (a member, on this API), `hosted_page` (the end user), ' +
        "`expiry_job`, `reviewer` (the platform's manual review), `smile_id` or `smile_id_job` (the automated " +
        'check).',
    }),
    id: nullable(Type.String(), {
      description: "The API key's id or the member's user id; null for every other kind.",
    }),
  },
  { additionalProperties: false },
);

const TransitionSchema = Type.Object(
  {
    fromStatus: nullable(stringEnum(verificationStatuses), { description: 'null for the creation.' }),
    toStatus: stringEnum(verificationStatuses),
    actor: ActorSchema,
    reason: nullable(Type.String(), { description: 'Why, when the one who moved it said.' }),
    at: Timestamp('When the status changed.'),
  },
  { additionalProperties: false },
);

const CallbackAttemptSchema = Type.Object(
  {
    delivery: Type.Integer({
      minimum: 1,
      description: 'Which delivery of the callback the try belongs to: 1, then one more for each redelivery.',
    }),
    attempt: Type.Integer({ minimum: 1, description: "The try's number within its delivery: 1 for the first." }),
    at: Timestamp('When it was sent.'),
    statusCode: nullable(Type.Integer(), {
      description: 'The HTTP status your endpoint answered; null when it did not answer (unreachable, timed out).',
    }),
    outcome: stringEnum(webhookAttemptOutcomes, {
      description:
        '`delivered` (a 2xx answer), `retrying` (another try is scheduled) or `failed` (the last try: given up).',
    }),
    durationMs: Type.Integer({ minimum: 0, description: 'How long the attempt took.' }),
  },
  { additionalProperties: false },
);

const CallbackSchema = Type.Object(
  {
    eventId: Type.String({ description: 'The event id, sent as the `webhook-id` header.' }),
    type: Type.String({ description: '`verification_session.<status>`, or `.created`.' }),
    status: stringEnum(webhookEventStatuses, {
      description: '`pending` (to be sent or retried), `delivered`, or `failed` (given up).',
    }),
    createdAt: Timestamp('When the event happened.'),
    deliveredAt: nullable(Timestamp('When an attempt was answered with 2xx.')),
    attempts: Type.Array(CallbackAttemptSchema, { description: 'Every delivery attempt, first first.' }),
  },
  { additionalProperties: false },
);

const DecisionSchema = Type.Object(
  {
    outcome: stringEnum(['verified', 'rejected', 'requires_input'] as const, {
      description: 'What the check of the last submission decided.',
    }),
    reason: nullable(Type.String(), { description: 'Why (rejected, requires_input); null for verified.' }),
    source: stringEnum(decisionSourceKinds, {
      description: 'What decides the session: `sandbox`, `manual` (a reviewer) or `smile_id`.',
    }),
    decidedAt: Timestamp('When it was decided.'),
  },
  { additionalProperties: false },
);

const OrganizationSessionDetailSchema = Type.Object(
  {
    session: ref(OrganizationSessionSchema),
    transitions: Type.Array(TransitionSchema, { description: 'Every status change, oldest first.' }),
    callbacks: Type.Array(CallbackSchema, { description: 'Every callback about it, oldest first.' }),
    decision: nullable(DecisionSchema, {
      description: 'The latest decision on a submission; null while none was made.',
    }),
    // The lifecycle's schema, with examples of each shape.
    verifiedOutputs: Type.Optional(
      Type.Union(VerifiedOutputsSchema.anyOf, {
        description: VerifiedOutputsSchema.description,
        examples: verifiedOutputsExamples,
      }),
    ),
  },
  { $id: 'OrganizationVerificationSessionDetail', additionalProperties: false },
);
export type OrganizationSessionDetailView = Static<typeof OrganizationSessionDetailSchema>;

export const OrganizationSessionListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        sessions: Type.Array(ref(OrganizationSessionSchema), { description: 'Newest first.' }),
        nextCursor: nextCursorSchema(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'OrganizationVerificationSessionList', additionalProperties: false },
);

export const OrganizationSessionDetailResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(OrganizationSessionDetailSchema) },
  { $id: 'OrganizationVerificationSessionDetailResponse', additionalProperties: false },
);

export const OrganizationSessionCanceledSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(OrganizationSessionSchema) },
  { $id: 'OrganizationVerificationSessionCanceled', additionalProperties: false },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const verificationSessionSharedSchemas = [
  OrganizationSessionSchema,
  OrganizationSessionDetailSchema,
  OrganizationSessionListSchema,
  OrganizationSessionDetailResponseSchema,
  OrganizationSessionCanceledSchema,
];
