import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import {
  AllowedOriginsEnvironmentParams,
  AllowedOriginsParams,
  AllowedOriginsResponseSchema,
  AllowedOriginsUpdatedSchema,
  SetAllowedOriginsBodySchema,
} from './schemas.js';
import { listAllowedOrigins, setAllowedOrigins } from './service.js';

export const ALLOWED_ORIGINS_UPDATED = 'Allowed origins updated';

/**
 * The organization's allowed origins (docs/decisions.md#allowed-origins): which web pages may open its hosted
 * verification pages through the front-end SDK (@platform/verify-web), framed (embed) or as a popup that reports back.
 * Every member reads them; owners, admins and developers change them (the role policy).
 */
export const allowedOriginRoutes: FastifyPluginAsyncTypebox<{ db: Database; now: () => Date }> = async (
  app,
  { db, now },
) => {
  const tags = ['organizations'];

  app.get(
    '/v1/organizations/:id/allowed-origins',
    {
      config: { organization: 'path', requires: 'organization:read' },
      schema: {
        tags,
        summary: 'The origins allowed to open hosted verification pages through the SDK',
        description:
          "Per environment. A page on one of them may frame the session's hosted page (embed mode) and receives " +
          'its events (verification.submitted, verification.completed, verification.closed) by postMessage; ' +
          'without any, the hosted page cannot be framed and posts nothing.',
        security: bearerSecurity,
        params: AllowedOriginsParams,
        response: { 200: ref(AllowedOriginsResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ success: true as const, data: await listAllowedOrigins(db, request.organization.id) }),
  );

  app.put(
    '/v1/organizations/:id/allowed-origins/:environment',
    {
      config: { organization: 'path', requires: 'developer:write' },
      schema: {
        tags,
        summary: "Replace an environment's allowed origins",
        description:
          'The whole list, at most 10; [] removes them all. Each origin is https://host[:port] (http:// only for ' +
          'localhost, *.localhost, 127.0.0.1 and [::1]) without path, query, fragment or wildcard; one that is not, or ' +
          'one listed twice, is a 400 naming it and nothing changes. Answers the list as stored (lower-case host, no ' +
          'default port). Recorded in the audit log. Hosted pages opened afterwards follow it.',
        security: bearerSecurity,
        params: AllowedOriginsEnvironmentParams,
        body: SetAllowedOriginsBodySchema,
        response: { 200: ref(AllowedOriginsUpdatedSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { environment } = request.params;
      const origins = await setAllowedOrigins(db, auditContextOf(request), {
        organizationId: request.organization.id,
        environment,
        origins: request.body.origins,
        now: now(),
      });
      request.log.info({ organizationId: request.organization.id, environment }, 'Allowed origins updated');
      return { success: true as const, message: ALLOWED_ORIGINS_UPDATED, data: { environment, origins } };
    },
  );
};
