import { apiKeyEnvironments } from '@platform/db';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

const environment = Type.Union(
  apiKeyEnvironments.map((value) => Type.Literal(value)),
  { description: 'Events of live sessions and of test sessions are signed with different secrets.' },
);

const dateTime = Type.String({ format: 'date-time' });
const nullableDateTime = Type.Union([dateTime, Type.Null()]);

export const WebhookEnvironmentParams = Type.Object({ environment });

/** One environment's callback settings. Never the secret. */
const WebhookEndpointSchema = Type.Object(
  {
    environment,
    defaultUrl: Type.Union([Type.String(), Type.Null()], {
      description: 'Where events of sessions without a callbackUrl are sent; null: such events are not sent.',
    }),
    secretRevealed: Type.Boolean({
      description: 'Whether the current signing secret was already shown (it is shown once; rotate for a new one).',
    }),
    secretRevealedAt: nullableDateTime,
    previousSecretExpiresAt: Type.Union([dateTime, Type.Null()], {
      description:
        'During a rotation, until when events are signed with the previous secret too; null when no rotation is ' +
        'in progress.',
    }),
    disabledTargets: Type.Array(
      Type.Object({ url: Type.String(), reason: Type.String(), disabledAt: dateTime }, { additionalProperties: false }),
      { description: 'URLs that answered 410 Gone and get no more events. Setting one as defaultUrl re-enables it.' },
    ),
  },
  { $id: 'WebhookEndpoint', additionalProperties: false },
);

export type WebhookEndpointView = Static<typeof WebhookEndpointSchema>;

export const WebhookEndpointListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({ endpoints: Type.Array(ref(WebhookEndpointSchema), { description: 'live, then test.' }) }),
  },
  { $id: 'WebhookEndpointList' },
);

export const WebhookEndpointResponseSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: ref(WebhookEndpointSchema) },
  { $id: 'WebhookEndpointResponse' },
);

/** PUT/PATCH body. Unknown fields are refused, so a misspelt field is not silently ignored. */
export const UpdateWebhookEndpointBodySchema = Type.Object(
  {
    defaultUrl: Type.Union(
      [Type.String({ minLength: 1, examples: ['https://hooks.example.com/platform'] }), Type.Null()],
      {
        description: 'An absolute https URL whose host is a public address, or null to send nothing by default.',
      },
    ),
  },
  { additionalProperties: false },
);

/** The answer to a reveal or a rotation: the only answers that ever carry a secret. */
export const WebhookSecretSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        environment,
        secret: Type.String({
          description:
            'The signing secret (`whsec_` + base64). Verify each callback with it, e.g. with the standardwebhooks ' +
            'library. Shown only in this response.',
        }),
        previousSecretExpiresAt: Type.Union([dateTime, Type.Null()], {
          description: 'After a rotation: until when the previous secret also signs events; null for a reveal.',
        }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'WebhookSecret' },
);

export type WebhookSecretView = Static<typeof WebhookSecretSchema>['data'];

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const webhookSharedSchemas = [
  WebhookEndpointSchema,
  WebhookEndpointListSchema,
  WebhookEndpointResponseSchema,
  WebhookSecretSchema,
];
