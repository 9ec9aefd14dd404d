import {
  apiKeyEnvironments,
  documentKinds,
  verificationCheckKinds,
  verificationCheckOutcomes,
  verificationCheckSources,
  verificationStatuses,
} from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { SubmittedDetailsSchema } from '@platform/verification-lifecycle';
import { Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';
import { reviewDecisions, reviewStates } from './review-views.js';

const DEFAULT_PAGE_SIZE = 20;

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    description === undefined ? {} : { description },
  );

const uuid = (description: string) => Type.String({ format: 'uuid', description });
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

export const ReviewQueueQuery = Type.Object(
  {
    state: Type.Optional(
      stringEnum(reviewStates, {
        default: 'waiting',
        description:
          'waiting (the default): the queue, oldest submission first. decided: the sessions given to reviewers that ' +
          'have a decision, newest decision first.',
      }),
    ),
    ...pageQueryProperties(DEFAULT_PAGE_SIZE),
  },
  { additionalProperties: false },
);

export const ReviewSessionParams = Type.Object({
  sessionId: uuid('The verification session (UUID).'),
});

export const ReviewDocumentParams = Type.Object({
  sessionId: uuid('The verification session (UUID).'),
  documentId: uuid('The document (UUID).'),
});

export const DocumentLinkQuery = Type.Object(
  {
    reviewer: Type.String({ minLength: 1, maxLength: 255, description: 'The reviewer the link was issued to.' }),
    expires: Type.Integer({ minimum: 0, description: 'Unix time (seconds) after which the link no longer works.' }),
    signature: Type.String({ minLength: 1, maxLength: 100, description: "The service's signature of the link." }),
  },
  { additionalProperties: false },
);

const ReviewActorSchema = Type.Object(
  {
    kind: Type.String({
      description:
        'Who moved the session: reviewer, smile_id (or smile_id_job), test_value, hosted_page, api_key, member, ' +
        'expiry_job, ...',
    }),
    userId: nullable(Type.String(), { description: "The reviewer's user id; null for any other actor." }),
    name: nullable(Type.String(), { description: "The reviewer's name, when their profile has one." }),
    email: nullable(Type.String(), { description: "The reviewer's email address, when they have a profile." }),
  },
  { $id: 'ReviewActor', additionalProperties: false },
);

const queueEntryProperties = {
  sessionId: uuid('The verification session.'),
  type: stringEnum(['kyc', 'kyb']),
  environment: stringEnum(apiKeyEnvironments),
  organization: Type.Object(
    { id: uuid('The customer organization.'), name: Type.String() },
    {
      additionalProperties: false,
      description: 'Whose customer the person is: policies and complaints differ by customer.',
    },
  ),
  appName: nullable(Type.String(), { description: "The customer's app, as the person saw it." }),
  status: stringEnum(verificationStatuses, { description: 'processing while it waits; its status now once decided.' }),
  submittedAt: dateTime('When it was (last) submitted: the queue is oldest first by this time.'),
  claimedBy: nullable(Type.String(), {
    description: 'The reviewer (user id) whose claim holds, or null: claim before working on it.',
  }),
  claimExpiresAt: nullable(dateTime('When that claim ends (30 minutes after it was taken).')),
  decision: nullable(stringEnum(reviewDecisions), {
    description: 'The last decision once decided (a later expiry or cancellation is in status); null while waiting.',
  }),
  decidedBy: Type.Union([ref(ReviewActorSchema), Type.Null()], {
    description: 'Who made that decision; null while waiting.',
  }),
  decidedAt: nullable(dateTime('When it was decided; null while waiting.')),
  reason: nullable(Type.String(), { description: 'Why it was decided so, as the person was told; null without one.' }),
};

const ReviewQueueEntrySchema = Type.Object(queueEntryProperties, {
  $id: 'ReviewQueueEntry',
  additionalProperties: false,
});

export const ReviewQueueSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        reviews: Type.Array(ref(ReviewQueueEntrySchema), {
          description: 'waiting: oldest submission first; decided: newest decision first.',
        }),
        nextCursor: nextCursorSchema(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ReviewQueue', additionalProperties: false },
);

const ReviewDocumentSchema = Type.Object(
  {
    id: uuid('The document.'),
    kind: stringEnum(documentKinds),
    contentType: Type.String({ description: 'image/jpeg, image/png, image/webp or application/pdf.' }),
    sizeBytes: Type.Integer(),
    uploadedAt: dateTime('When the person sent it.'),
    url: Type.String({
      // biome-ignore-start lint/plugin: the OpenAPI description names HTML elements, it writes no HTML
      description:
        'The document itself, decrypted: a signed link that works without the bearer token (for an <img> or ' +
        '<iframe>) for 5 minutes, and only for the reviewer it was issued to while the session waits. Treat it as ' +
        'a secret: never log or share it. Each opening is recorded in the audit log.',
      // biome-ignore-end lint/plugin: the OpenAPI description names HTML elements, it writes no HTML
    }),
    urlExpiresAt: dateTime('When the link stops working; ask for the session again for fresh links.'),
  },
  { additionalProperties: false },
);

const ReviewCheckSchema = Type.Object(
  {
    id: uuid('The check.'),
    kind: stringEnum(verificationCheckKinds),
    source: stringEnum(verificationCheckSources, {
      description: 'service (this platform), smile_id, or test (faked for a test session).',
    }),
    outcome: stringEnum(verificationCheckOutcomes, {
      description: 'attention: a person must look; unavailable: it could not be made.',
    }),
    code: nullable(Type.String(), {
      description: "The provider's result code, or this service's code for what it found.",
    }),
    summary: Type.String({ description: "What was found, in this service's words, without the person's data." }),
    details: Type.Record(Type.String(), Type.Unknown(), {
      description: "Facts without the person's data: { comparedWith: 'registry_photo' }, { mismatched: ['idNumber'] }.",
    }),
    evidence: nullable(Type.Record(Type.String(), Type.Unknown()), {
      description:
        "What the check saw of the person (the registry's names and date of birth, screening hits), opened for the " +
        'reviewer; null when the check kept none or it was erased with the documents.',
    }),
    submittedAt: dateTime('The submission it checked (a resubmission is checked again).'),
    createdAt: dateTime('When the check was made.'),
  },
  { $id: 'ReviewCheck', additionalProperties: false },
);

const ReviewDetailSchema = Type.Object(
  {
    ...queueEntryProperties,
    requiredDocuments: Type.Array(Type.String()),
    personalDataErasedAt: nullable(
      dateTime('When retention (or the customer) erased the documents and details; null while they are kept.'),
    ),
    details: Type.Union([SubmittedDetailsSchema, Type.Null()], {
      description: 'What the person stated at submission (decrypted for this answer only); null if nothing was.',
    }),
    documents: Type.Array(ReviewDocumentSchema, {
      description: 'The current documents, oldest first: none once erased (personalDataErasedAt).',
    }),
    checks: Type.Array(ref(ReviewCheckSchema), {
      description: "The checks of the session's submissions and their results, oldest submission first.",
    }),
    history: Type.Array(
      Type.Object(
        {
          from: nullable(stringEnum(verificationStatuses)),
          to: stringEnum(verificationStatuses),
          reason: nullable(Type.String()),
          at: dateTime('When it moved.'),
          actor: ref(ReviewActorSchema),
        },
        { additionalProperties: false },
      ),
      { description: 'Status changes, oldest first: who made each, when, and why.' },
    ),
  },
  { $id: 'ReviewDetail', additionalProperties: false },
);

export const ReviewDetailResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(ReviewDetailSchema) },
  { $id: 'ReviewDetailResponse', additionalProperties: false },
);

export const ReviewClaimResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        sessionId: uuid('The verification session.'),
        claimedBy: Type.String({ description: 'The reviewer holding the claim: the caller.' }),
        claimedAt: dateTime('When the claim was taken or renewed.'),
        expiresAt: dateTime('When it ends: 30 minutes later. Claiming again renews it.'),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ReviewClaimResponse', additionalProperties: false },
);

export const ReviewDecisionBodySchema = Type.Object(
  {
    decision: literals(reviewDecisions, 'verified, rejected, or requires_input (the person must send more).'),
    reason: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        description:
          'Why; required unless verified. Shown to the person on the hosted page and sent in the callback as ' +
          'lastError, so write it for them, without personal data.',
      }),
    ),
    documents: Type.Optional(
      Type.Array(literals(documentKinds), {
        minItems: 1,
        maxItems: documentKinds.length,
        description: "With requires_input only: the document kinds to send again, kinds of the session's type.",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReviewDecisionResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        sessionId: uuid('The verification session.'),
        status: stringEnum(reviewDecisions),
        previousStatus: stringEnum(verificationStatuses),
        reason: nullable(Type.String(), { description: "The session's lastError now." }),
        resubmitDocuments: nullable(Type.Array(stringEnum(documentKinds))),
        decidedAt: dateTime('When the decision was made.'),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ReviewDecisionResponse', additionalProperties: false },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const reviewSharedSchemas = [
  ReviewActorSchema,
  ReviewCheckSchema,
  ReviewQueueEntrySchema,
  ReviewQueueSchema,
  ReviewDetailSchema,
  ReviewDetailResponseSchema,
  ReviewClaimResponseSchema,
  ReviewDecisionResponseSchema,
];
