import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import {
  UpdateWebhookEndpointBodySchema,
  WebhookEndpointListSchema,
  WebhookEndpointResponseSchema,
  WebhookEnvironmentParams,
  WebhookSecretSchema,
} from './schemas.js';
import { listWebhookEndpoints, revealSecret, rotateSecret, updateWebhookEndpoint } from './service.js';

export interface WebhookRoutesOptions {
  db: Database;
  now: () => Date;
  /** Accept http and private or loopback default URLs (local runs and tests only). */
  allowPrivateTargets: boolean;
}

export const WEBHOOK_ENDPOINT_UPDATED = 'Webhook endpoint updated';
export const SECRET_REVEALED = 'Copy the signing secret now: it is shown only once.';
export const SECRET_ROTATED =
  'Signing secret rotated. Copy it now: it is shown only once. Events are signed with both secrets until ' +
  'previousSecretExpiresAt.';

/**
 * The organization's callback settings (docs/decisions.md#callback-settings-routes): a default URL and a signing
 * secret per environment. Every member reads them; owners, admins and developers change them (the role policy). The
 * organization is the one named by X-Organization-Id.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (
  app,
  { db, now, allowPrivateTargets },
) => {
  const tags = ['webhooks'];
  const read = { organization: true, requires: 'organization:read' } as const;
  const write = { organization: true, requires: 'developer:write' } as const;

  app.get(
    '/v1/webhooks/endpoints',
    {
      config: read,
      schema: {
        tags,
        summary: "The organization's callback settings for live and test",
        description:
          'Default URL, whether the signing secret was revealed, and any rotation in progress; never the secret.',
        security: bearerSecurity,
        response: { 200: ref(WebhookEndpointListSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      data: { endpoints: await listWebhookEndpoints(db, { organizationId: request.organization.id, now: now() }) },
    }),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/v1/webhooks/endpoints/:environment',
      config: write,
      schema: {
        tags,
        summary: 'Set or clear the default callback URL of an environment',
        description:
          'Events of sessions created without a callbackUrl go to this URL; null sends them nowhere. It must be an ' +
          'absolute https URL whose host is not a private or loopback address. Setting a URL that was disabled ' +
          'after answering 410 Gone enables it again.',
        security: bearerSecurity,
        params: WebhookEnvironmentParams,
        body: UpdateWebhookEndpointBodySchema,
        response: { 200: ref(WebhookEndpointResponseSchema), ...errorResponses(400, 401, 403) },
      },
      handler: async (request) => {
        const endpoint = await updateWebhookEndpoint(db, {
          organizationId: request.organization.id,
          environment: request.params.environment,
          defaultUrl: request.body.defaultUrl,
          allowPrivateTargets,
          now: now(),
          audit: auditContextOf(request),
        });
        request.log.info(
          { organizationId: request.organization.id, environment: request.params.environment },
          'Webhook endpoint updated',
        );
        return { success: true as const, message: WEBHOOK_ENDPOINT_UPDATED, data: endpoint };
      },
    });
  }

  app.post(
    '/v1/webhooks/endpoints/:environment/secret/reveal',
    {
      config: write,
      schema: {
        tags,
        summary: 'Show the signing secret, once',
        description:
          'The first call answers the secret and records that it was shown; later calls answer 409. To get a ' +
          'secret again, rotate it.',
        security: bearerSecurity,
        params: WebhookEnvironmentParams,
        response: { 200: ref(WebhookSecretSchema), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request) => {
      const { environment } = request.params;
      const revealed = await revealSecret(db, {
        organizationId: request.organization.id,
        environment,
        now: now(),
        audit: auditContextOf(request),
      });
      request.log.info({ organizationId: request.organization.id, environment }, 'Webhook signing secret revealed');
      return { success: true as const, message: SECRET_REVEALED, data: revealed };
    },
  );

  app.post(
    '/v1/webhooks/endpoints/:environment/secret/rotate',
    {
      config: write,
      schema: {
        tags,
        summary: 'Replace the signing secret',
        description:
          'Answers a new secret, shown only here. For 24 hours events carry two signatures, one with the new ' +
          'secret and one with the previous, so receivers can switch without missing any.',
        security: bearerSecurity,
        params: WebhookEnvironmentParams,
        response: { 200: ref(WebhookSecretSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { environment } = request.params;
      const rotated = await rotateSecret(db, {
        organizationId: request.organization.id,
        environment,
        now: now(),
        audit: auditContextOf(request),
      });
      request.log.info({ organizationId: request.organization.id, environment }, 'Webhook signing secret rotated');
      return { success: true as const, message: SECRET_ROTATED, data: rotated };
    },
  );
};
