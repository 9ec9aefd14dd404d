import { API_KEY_NAME_MAX_LENGTH, DEFAULT_API_KEY_NAME } from '@platform/api-keys';
import { apiKeyEnvironments, apiKeyPermissions } from '@platform/db';
import { singleLineName } from '@platform/http';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

/** The absolute bound of a key's rate limit; each organization's maximum (at most this) is checked by the route. */
export const API_KEY_RATE_LIMIT_MAX = 100_000;

const environment = Type.Union(
  apiKeyEnvironments.map((value) => Type.Literal(value)),
  { description: 'live keys act on real money and data; test keys on the sandbox.' },
);

const prefix = Type.Union([Type.Literal('sk_live_'), Type.Literal('sk_test_')], {
  description: 'The start of the secret, which names its environment.',
});

const rateLimitPerMinute = Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
  description: "Requests per minute allowed for this key; null means the backend service's default.",
});

const permissionsDescription =
  'What the key may do beyond the sessions themselves: `verified_data:read` reads the verified personal data of ' +
  "the organization's sessions (GET /v1/verify/sessions/:id?expand=verified_outputs).";

/** POST body. Unknown fields are refused, so a misspelt option is not silently ignored. */
export const CreateApiKeyBodySchema = Type.Object(
  {
    environment,
    name: Type.Optional(
      singleLineName({
        description: `A label for the key, 1-${API_KEY_NAME_MAX_LENGTH} characters after trimming, on one line. Default "${DEFAULT_API_KEY_NAME}".`,
        examples: ['Production server'],
      }),
    ),
    rateLimitPerMinute: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: API_KEY_RATE_LIMIT_MAX,
        description:
          "Requests per minute for this key, at most the organization's maximum (600 unless the platform set " +
          "another; the schema's 100000 is the absolute bound). Omitted: the backend service's default.",
      }),
    ),
    permissions: Type.Optional(
      Type.Array(Type.Union(apiKeyPermissions.map((permission) => Type.Literal(permission))), {
        maxItems: apiKeyPermissions.length,
        uniqueItems: true,
        description:
          `${permissionsDescription} Default none. Giving \`verified_data:read\` needs the role owner or admin ` +
          '(403 otherwise); it cannot be added to a key later.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A key as the list shows it: never the secret or its hash, only the prefix and last four characters. */
const ApiKeySchema = Type.Object(
  {
    id: Type.String({ description: 'API key identifier (UUID).' }),
    name: Type.String(),
    environment,
    prefix,
    lastFour: Type.String({ description: 'The last four characters of the secret, to tell keys apart.' }),
    rateLimitPerMinute,
    permissions: Type.Array(Type.String(), { description: permissionsDescription }),
    createdAt: Type.String({ format: 'date-time' }),
    lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Last use against the backend service (recorded at most once a minute); null if never used.',
    }),
    revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the key was revoked; null while it is active.',
    }),
  },
  { $id: 'ApiKey', additionalProperties: false },
);

export type ApiKeyView = Static<typeof ApiKeySchema>;

export const ApiKeyListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      apiKeys: Type.Array(ref(ApiKeySchema), { description: 'Newest first.' }),
    }),
  },
  { $id: 'ApiKeyList' },
);

/** The answer to a creation: the only one that ever carries the secret. */
export const CreatedApiKeySchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      {
        id: Type.String({ description: 'API key identifier (UUID).' }),
        name: Type.String(),
        environment,
        secret: Type.String({
          description: 'The full key, for the x-service-api-key header. Shown only in this response.',
        }),
        lastFour: Type.String(),
        prefix,
        rateLimitPerMinute,
        permissions: Type.Array(Type.String(), { description: permissionsDescription }),
        createdAt: Type.String({ format: 'date-time' }),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'CreatedApiKey' },
);

export type CreatedApiKeyView = Static<typeof CreatedApiKeySchema>['data'];

export const ListApiKeysQuerySchema = Type.Object({
  includeRevoked: Type.Boolean({
    default: false,
    description: 'Also list revoked keys (with their revokedAt). Default: active keys only.',
  }),
});

export const ApiKeyIdParams = Type.Object({
  id: Type.String({ description: 'API key identifier.' }),
});

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const apiKeySharedSchemas = [ApiKeySchema, ApiKeyListSchema, CreatedApiKeySchema];
