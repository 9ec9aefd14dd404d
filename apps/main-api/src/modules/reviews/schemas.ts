import { apiKeyEnvironments, documentKinds, idTypes, verificationStatuses } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';
import { reviewDecisions } from './review-views.js';

const DEFAULT_PAGE_SIZE = 20;

const literals = <T extends string>(values: readonly T[], description?: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value)),
    description === undefined ? {} : { description },
  );

const uuid = (description: string) => Type.String({ format: 'uuid', description });
const dateTime = (description: string) => Type.String({ format: 'date-time', description });

export const ReviewQueueQuery = Type.Object(pageQueryProperties(DEFAULT_PAGE_SIZE), { additionalProperties: false });

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

const queueEntryProperties = {
  sessionId: uuid('The verification session.'),
  type: stringEnum(['kyc', 'kyb']),
  environment: stringEnum(apiKeyEnvironments),
  appName: nullable(Type.String(), { description: "The customer's app, as the person saw it." }),
  submittedAt: dateTime('When it was submitted: the queue is oldest first by this time.'),
  claimedBy: nullable(Type.String(), {
    description: 'The reviewer (user id) whose claim holds, or null: claim before working on it.',
  }),
  claimExpiresAt: nullable(dateTime('When that claim ends (30 minutes after it was taken).')),
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
        reviews: Type.Array(ref(ReviewQueueEntrySchema), { description: 'Oldest submission first.' }),
        nextCursor: nextCursorSchema(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'ReviewQueue', additionalProperties: false },
);

const SubmittedDetailsSchema = Type.Union(
  [
    Type.Object(
      { type: Type.Literal('kyc'), idType: stringEnum(idTypes), idNumber: Type.String() },
      { additionalProperties: false },
    ),
    Type.Object(
      {
        type: Type.Literal('kyb'),
        registrationNumber: Type.String(),
        companyName: nullable(Type.String()),
      },
      { additionalProperties: false },
    ),
  ],
  { description: 'What the person stated at submission (decrypted for this answer only); null if nothing was.' },
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

const ReviewDetailSchema = Type.Object(
  {
    ...queueEntryProperties,
    status: stringEnum(verificationStatuses),
    requiredDocuments: Type.Array(Type.String()),
    details: Type.Union([SubmittedDetailsSchema, Type.Null()]),
    documents: Type.Array(ReviewDocumentSchema, { description: 'The current documents, oldest first.' }),
    history: Type.Array(
      Type.Object(
        {
          from: nullable(stringEnum(verificationStatuses)),
          to: stringEnum(verificationStatuses),
          reason: nullable(Type.String()),
          at: dateTime('When it moved.'),
        },
        { additionalProperties: false },
      ),
      { description: 'Status changes, oldest first, with the reasons of earlier decisions.' },
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
  ReviewQueueEntrySchema,
  ReviewQueueSchema,
  ReviewDetailSchema,
  ReviewDetailResponseSchema,
  ReviewClaimResponseSchema,
  ReviewDecisionResponseSchema,
];
