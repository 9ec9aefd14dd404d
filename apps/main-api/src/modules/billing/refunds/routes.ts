import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import { ListRefundsDueQuery, RefundDueListSchema } from './schemas.js';
import { listRefundsDue } from './service.js';

/**
 * The money the platform's finance staff must give back (docs/decisions.md#retired-organizations-take-no-money): what
 * arrived for organizations that had been closed. For the role finance of the platform's own organization only
 * (`organization: 'platform'`, `refunds:read`).
 */
export const refundRoutes: FastifyPluginAsyncTypebox<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/v1/finance/refunds-due',
    {
      config: { organization: 'platform', requires: 'refunds:read' },
      schema: {
        tags: ['finance'],
        summary: 'Money received for closed organizations, to refund',
        description:
          'Payments whose money arrived after their organization was closed (retired): a card or M-Pesa success the ' +
          'provider could not be stopped from taking, a bank transfer finance recorded, or money recorded for a ' +
          'transfer before the organization was closed. Nothing of it was applied; each is listed with what to give ' +
          'back, newest first, a page at a time (pass nextCursor as cursor).',
        security: bearerSecurity,
        querystring: ListRefundsDueQuery,
        response: { 200: ref(RefundDueListSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listRefundsDue(db, { limit: request.query.limit, cursor: request.query.cursor }),
    }),
  );
};
