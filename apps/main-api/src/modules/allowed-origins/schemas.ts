import { apiKeyEnvironments, MAX_ALLOWED_ORIGINS } from '@platform/db';
import { type Static, Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';
import { ORIGIN_EXAMPLE } from './origin.js';

const environment = Type.Union(
  apiKeyEnvironments.map((value) => Type.Literal(value)),
  { description: 'Pages of live sessions and of test sessions have separate lists.' },
);

const originList = (description: string) =>
  Type.Array(Type.String({ examples: [ORIGIN_EXAMPLE] }), { maxItems: MAX_ALLOWED_ORIGINS, description });

export const AllowedOriginsParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organization identifier (UUID).' }),
});

export const AllowedOriginsEnvironmentParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Organization identifier (UUID).' }),
  environment,
});

/** PUT body: the whole list. Unknown fields are refused. */
export const SetAllowedOriginsBodySchema = Type.Object(
  {
    origins: Type.Array(Type.String({ minLength: 1, maxLength: 300, examples: [ORIGIN_EXAMPLE] }), {
      maxItems: MAX_ALLOWED_ORIGINS,
      description:
        `The whole list, replacing the one before (at most ${MAX_ALLOWED_ORIGINS}; [] removes them all). Each an ` +
        'origin: https://host or https://host:port, no path, query or wildcard; http:// only for localhost, ' +
        '*.localhost, 127.0.0.1 and [::1]. Stored as browsers write origins (lower-case host, no default port).',
    }),
  },
  { additionalProperties: false },
);

const AllowedOriginsSchema = Type.Object(
  {
    live: originList('Origins whose pages may open live sessions through the SDK.'),
    test: originList('Origins whose pages may open test sessions through the SDK.'),
  },
  { $id: 'AllowedOrigins', additionalProperties: false },
);

export type AllowedOriginsView = Static<typeof AllowedOriginsSchema>;

export const AllowedOriginsResponseSchema = Type.Object(
  { success: Type.Literal(true), data: ref(AllowedOriginsSchema) },
  { $id: 'AllowedOriginsResponse' },
);

export const AllowedOriginsUpdatedSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object(
      { environment, origins: originList('The list now in force, normalised.') },
      { additionalProperties: false },
    ),
  },
  { $id: 'AllowedOriginsUpdated' },
);

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const allowedOriginSharedSchemas = [
  AllowedOriginsSchema,
  AllowedOriginsResponseSchema,
  AllowedOriginsUpdatedSchema,
];
