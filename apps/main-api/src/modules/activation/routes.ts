import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { ActivationParams, ActivationResponseSchema, ActivationStartedSchema } from './schemas.js';
import { type ActivationSettings, getActivation, startActivation } from './service.js';

export const ACTIVATION_STARTED = 'Business verification started';
export const ACTIVATION_OPEN = 'Business verification already open';

export interface ActivationRoutesOptions extends ActivationSettings {
  db: Database;
  now: () => Date;
}

/**
 * Going live (docs/decisions.md#going-live): the organization's activation state for every member, and the start of
 * its business verification for its owners. The organization is the one in the path: 404 for one the caller is not
 * in.
 */
export const activationRoutes: FastifyPluginAsyncTypebox<ActivationRoutesOptions> = async (app, options) => {
  const { db, now, ...settings } = options;
  const tags = ['organizations'];
  const lifecycle = { platformOrganizationId: settings.platformOrganizationId };

  app.get(
    '/v1/organizations/:id/activation',
    {
      config: { organization: 'path', requires: 'organization:read' },
      schema: {
        tags,
        summary: "The organization's activation state",
        description:
          'Whether live API keys and live wallet top-ups are unlocked (state activated), and if not why and what to ' +
          'do (reason), with the latest business verification session and its hosted page URL. Test keys and test ' +
          "top-ups work in every state. Unknown organization, or not the caller's: 404.",
        security: bearerSecurity,
        params: ActivationParams,
        response: { 200: ref(ActivationResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getActivation(db, settings, request.organization.id),
    }),
  );

  app.post(
    '/v1/organizations/:id/activation',
    {
      config: { organization: 'path', requires: 'organization:activate' },
      schema: {
        tags,
        summary: 'Start the business verification that activates the organization',
        description:
          "Opens the platform's KYB session of the organization and answers its hosted page URL (201), or answers " +
          'the one still open (200), so calling it again is safe. On the hosted page the owner gives the ' +
          'registration number and the documents, KRA PIN certificate included; the platform’s reviewers (or its ' +
          'automated source) decide it. Once verified the organization is activated, once, with an audit record ' +
          'and a notification to its owners. Free. 409 when it is activated already; 503 when the platform has ' +
          'no organization of its own configured.',
        security: bearerSecurity,
        params: ActivationParams,
        response: {
          200: ref(ActivationStartedSchema),
          201: ref(ActivationStartedSchema),
          ...errorResponses(400, 401, 403, 404, 409, 503),
        },
      },
    },
    async (request, reply) => {
      const organizationId = request.organization.id;
      const { created, activation } = await startActivation(db, settings, {
        organizationId,
        userId: request.user.id,
        now: now(),
        audit: auditContextOf(request),
        lifecycle,
      });
      request.log.info({ organizationId, created }, created ? 'Activation session created' : 'Activation session open');
      reply.code(created ? 201 : 200);
      return { success: true as const, message: created ? ACTIVATION_STARTED : ACTIVATION_OPEN, data: activation };
    },
  );
};
