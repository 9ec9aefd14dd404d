import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { notFound } from '@platform/errors';
import { errorResponses, SuccessMessage } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import {
  ApiKeyIdParams,
  ApiKeyListSchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  ListApiKeysQuerySchema,
} from './schemas.js';
import { issueApiKey, listApiKeys, revokeOrganizationApiKey } from './service.js';

export interface ApiKeyRoutesOptions {
  db: Database;
  now: () => Date;
  /** The highest rateLimitPerMinute for organizations without a maximum of their own. */
  rateLimitMaxPerMinute: number;
}

export const API_KEY_CREATED = 'API key created. Copy the secret now: it is shown only once.';
const API_KEY_REVOKED = 'API key revoked';
export const API_KEY_NOT_FOUND = 'API key not found';

/**
 * Management of the organization's keys for the backend service. Owners, admins and developers create and revoke, every member lists;
 * the organization is the one named by X-Organization-Id (see src/plugins/organization-access.ts).
 */
export const apiKeyRoutes: FastifyPluginAsyncTypebox<ApiKeyRoutesOptions> = async (
  app,
  { db, now, rateLimitMaxPerMinute },
) => {
  const tags = ['api-keys'];
  const read = { organization: true, requires: 'organization:read' } as const;
  const write = { organization: true, requires: 'developer:write' } as const;

  app.post(
    '/v1/api-keys',
    {
      config: write,
      schema: {
        tags,
        summary: 'Create an API key for the organization',
        description:
          'The response carries the full secret; it is shown only this once (only a hash is stored). ' +
          "Unknown body fields are refused. rateLimitPerMinute may not exceed the organization's maximum " +
          '(the platform default, 600 unless configured, or a maximum the platform set for the organization): ' +
          'above it the answer is 400 validation_error on /rateLimitPerMinute naming the maximum. `permissions: ' +
          '["verified_data:read"]` lets the key read verified personal data; only owners and admins may give it ' +
          '(403 otherwise, nothing created).',
        security: bearerSecurity,
        body: CreateApiKeyBodySchema,
        response: { 201: ref(CreatedApiKeySchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const { environment, name, rateLimitPerMinute, permissions } = request.body;
      const created = await issueApiKey(
        db,
        {
          organizationId: request.organization.id,
          userId: request.user.id,
          environment,
          ...(name === undefined ? {} : { name }),
          ...(rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute }),
          ...(permissions === undefined ? {} : { permissions }),
          role: request.organization.role,
        },
        rateLimitMaxPerMinute,
        auditContextOf(request),
      );
      request.log.info({ apiKeyId: created.id, organizationId: request.organization.id }, 'API key created');
      return reply.code(201).send({ success: true as const, message: API_KEY_CREATED, data: created });
    },
  );

  app.get(
    '/v1/api-keys',
    {
      config: read,
      schema: {
        tags,
        summary: "List the organization's API keys",
        description:
          'Newest first, with the prefix and last four characters only; never the secret. Active keys only ' +
          'unless includeRevoked=true.',
        security: bearerSecurity,
        querystring: ListApiKeysQuerySchema,
        response: { 200: ref(ApiKeyListSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      data: {
        apiKeys: await listApiKeys(db, request.organization.id, { includeRevoked: request.query.includeRevoked }),
      },
    }),
  );

  app.delete(
    '/v1/api-keys/:id',
    {
      config: write,
      schema: {
        tags,
        summary: 'Revoke an API key',
        description:
          'The key stops working at once. Revoking an already revoked key succeeds and keeps its first ' +
          "revocation time. An unknown id and another organization's key give the same 404.",
        security: bearerSecurity,
        params: ApiKeyIdParams,
        response: { 200: ref(SuccessMessage), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const revoked = await revokeOrganizationApiKey(
        db,
        request.organization.id,
        request.params.id,
        now(),
        auditContextOf(request),
      );
      if (!revoked) throw notFound(API_KEY_NOT_FOUND);
      request.log.info({ apiKeyId: request.params.id, organizationId: request.organization.id }, 'API key revoked');
      return { success: true as const, message: API_KEY_REVOKED };
    },
  );
};
