import { apiKeyEnvironments, webhookAttemptOutcomes } from '@platform/db';
import { nullable, stringEnum } from '@platform/http';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { webhookEventOutcomes } from '@platform/webhooks';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

const DEFAULT_PAGE_SIZE = 20;

const dateTime = (description: string) => Type.String({ format: 'date-time', description });
const environment = stringEnum(apiKeyEnvironments, { description: 'The environment of the event: live or test.' });

export const EventIdParams = Type.Object({
  eventId: Type.String({
    minLength: 1,
    maxLength: 100,
    description: 'The event id (`msg_...`), also its `webhook-id` header.',
    examples: ['msg_00UFlcovAys1ExXuJCGgmTSurEx'],
  }),
});

export const TestEventParams = Type.Object({
  environment: stringEnum(apiKeyEnvironments, { description: 'Whose default URL the test event goes to.' }),
});

const eventOutcome = stringEnum(webhookEventOutcomes, {
  description:
    'What the current delivery came to: `pending` (not tried yet), `retrying` (failed, another try is scheduled), ' +
    '`delivered` (answered 2xx) or `failed` (failed for good: ten tries, 410 Gone, a refused or disabled URL, or no ' +
    'URL).',
});

export const ListWebhookEventsQuery = Type.Object(
  {
    ...pageQueryProperties(DEFAULT_PAGE_SIZE),
    environment: Type.Optional(environment),
    type: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'Only events of this type, exactly (for example `verification_session.verified`).',
        examples: ['verification_session.verified'],
      }),
    ),
    outcome: Type.Optional(eventOutcome),
    from: Type.Optional(
      dateTime('Only events created at or after this time (ISO 8601 with a time zone, e.g. 2026-03-01T00:00:00Z).'),
    ),
    to: Type.Optional(dateTime('Only events created before this time (ISO 8601 with a time zone); not before `from`.')),
  },
  { additionalProperties: false },
);

const WebhookAttemptSchema = Type.Object(
  {
    delivery: Type.Integer({
      minimum: 1,
      description: 'Which delivery the try belongs to: 1, then one more per redelivery.',
    }),
    attempt: Type.Integer({ minimum: 1, description: 'The try within its delivery, from 1.' }),
    at: dateTime('When the try ended.'),
    url: Type.String({ description: 'Where it was sent: scheme, host and path (the query string is not shown).' }),
    statusCode: nullable(Type.Integer(), { description: "The receiver's HTTP status; null when it did not answer." }),
    latencyMs: Type.Integer({
      minimum: 0,
      description: 'From sending to the answer (or the failure), in milliseconds.',
    }),
    outcome: stringEnum(webhookAttemptOutcomes, {
      description: '`delivered` (2xx), `retrying` (failed, another try was scheduled) or `failed` (failed for good).',
    }),
    error: nullable(Type.String(), {
      description:
        'Why no answer came (a timeout, a refused connection, a URL refused by policy); null when the receiver ' +
        'answered, whatever its status.',
    }),
    responseExcerpt: nullable(Type.String({ maxLength: 300 }), {
      description:
        "The start of the receiver's answer, at most 300 characters, as kept when it arrived: control characters " +
        'removed and anything that looks like a secret, token or email address replaced by `[redacted]`. Null when ' +
        'the answer had no body or there was no answer.',
    }),
  },
  { $id: 'WebhookDeliveryAttempt', additionalProperties: false },
);

const eventProperties = {
  id: Type.String({ description: 'The event id (`msg_...`): its `webhook-id`, the same on every try and delivery.' }),
  type: Type.String({
    description: 'For example `verification_session.verified`, `wallet.balance_low`, `webhook.test`.',
  }),
  environment,
  outcome: eventOutcome,
  deliveries: Type.Integer({ minimum: 1, description: 'How many deliveries it had: 1, then one more per redelivery.' }),
  attemptCount: Type.Integer({ minimum: 0, description: 'Tries of the current delivery so far.' }),
  createdAt: dateTime('When the event happened (the `timestamp` of its body).'),
  nextAttemptAt: nullable(Type.String({ format: 'date-time' }), {
    description: 'When the next try is due, while the outcome is pending or retrying; otherwise null.',
  }),
  deliveredAt: nullable(Type.String({ format: 'date-time' }), {
    description: 'When it was delivered; otherwise null.',
  }),
  lastStatusCode: nullable(Type.Integer(), { description: 'The HTTP status of the last try of the current delivery.' }),
  lastError: nullable(Type.String(), {
    description:
      'Why the current delivery has not succeeded yet (`Try 2: HTTP 503`), or why it failed for good; null when ' +
      'delivered or not tried yet.',
  }),
};

const WebhookLogEventSchema = Type.Object(
  {
    ...eventProperties,
    lastAttempt: Type.Union([ref(WebhookAttemptSchema), Type.Null()], {
      description: 'Its latest try, of any delivery; null when it was never tried.',
    }),
  },
  { $id: 'WebhookLogEvent', additionalProperties: false },
);

const WebhookEventDetailSchema = Type.Object(
  {
    ...eventProperties,
    body: Type.Object(
      {
        id: Type.String(),
        type: Type.String(),
        timestamp: Type.String({ format: 'date-time' }),
        data: Type.Record(Type.String(), Type.Unknown(), { description: "The event's data, as documented per type." }),
      },
      { description: 'The JSON body sent (and signed) on every try.', additionalProperties: false },
    ),
    attempts: Type.Array(ref(WebhookAttemptSchema), { description: 'Every try of every delivery, oldest first.' }),
  },
  { $id: 'WebhookEventDetail', additionalProperties: false },
);

export type WebhookAttemptView = Static<typeof WebhookAttemptSchema>;
export type WebhookLogEventView = Static<typeof WebhookLogEventSchema>;
export type WebhookEventDetailView = Static<typeof WebhookEventDetailSchema>;

export const WebhookEventListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object(
      {
        events: Type.Array(ref(WebhookLogEventSchema), { description: 'Newest first.' }),
        nextCursor: nextCursorSchema(),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'WebhookEventList', additionalProperties: false },
);

export const WebhookEventResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(WebhookEventDetailSchema) },
  { $id: 'WebhookEventResponse', additionalProperties: false },
);

export const RedeliveryResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        result: stringEnum(['scheduled', 'already_scheduled'] as const, {
          description:
            '`scheduled`: a new delivery starts now; `already_scheduled`: the event was being delivered, so none was ' +
            'added (its next try is made due now).',
        }),
        event: ref(WebhookEventDetailSchema),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'WebhookRedelivery', additionalProperties: false },
);

export const TestEventResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        eventId: Type.String({ description: 'The test event; follow it with GET /v1/webhooks/events/{eventId}.' }),
        type: Type.Literal('webhook.test'),
        environment,
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'WebhookTestEvent', additionalProperties: false },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const webhookDeliverySharedSchemas = [
  WebhookAttemptSchema,
  WebhookLogEventSchema,
  WebhookEventDetailSchema,
  WebhookEventListSchema,
  WebhookEventResponseSchema,
  RedeliveryResponseSchema,
  TestEventResponseSchema,
];
