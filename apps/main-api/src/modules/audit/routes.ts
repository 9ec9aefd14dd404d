import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { AuditEventListSchema, ListAuditEventsQuery, OrganizationIdParams } from './schemas.js';
import { listAuditEvents } from './service.js';

/** The organization's audit log (docs/decisions.md#audit-log), for owners and admins. */
export const auditRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/v1/organizations/:id/audit-events',
    {
      config: { organization: 'path', requires: 'audit:read' },
      schema: {
        tags: ['organizations'],
        summary: "The organization's audit log",
        description:
          'Who changed memberships, invitations, roles, API keys, webhook endpoints and secrets, subscriptions and ' +
          'payments, newest first, a page at a time: pass nextCursor as cursor for the next page. Filter by action ' +
          '(exact) and by time: from (inclusive) and to (exclusive), ISO 8601 date-times with a time zone; from after ' +
          'to is 400. details never hold a secret. An unknown organization and one the user is not in are the same 404.',
        security: bearerSecurity,
        params: OrganizationIdParams,
        querystring: ListAuditEventsQuery,
        response: { 200: ref(AuditEventListSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { action, from, to, limit, cursor } = request.query;
      const data = await listAuditEvents(db, request.organization.id, { action, from, to, limit, cursor });
      return { success: true as const, data };
    },
  );
};
