import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { ConsoleSessionUserParams, EndedConsoleSessionsSchema } from './schemas.js';
import { endConsoleSessionsOf } from './service.js';

export interface ConsoleSessionRoutesOptions {
  db: Database;
  now: () => Date;
}

/**
 * The platform organization's owners and admins end every review console session of a user
 * (docs/decisions.md#console-sessions): `organization: 'platform'`, so everyone else, reviewers included, is 403.
 */
export const consoleSessionRoutes: FastifyPluginAsyncTypebox<ConsoleSessionRoutesOptions> = async (
  app,
  { db, now },
) => {
  app.delete(
    '/v1/review-console/users/:userId/sessions',
    {
      config: { organization: 'platform', requires: 'members:write' },
      schema: {
        tags: ['review-console'],
        summary: 'End every review console session of a user',
        description:
          'Signs the user out of the review console everywhere, at once: each session cookie they hold stops opening ' +
          'the console at its next request, on every instance. Answers how many sessions were open (0 for a user ' +
          "with none, or an unknown one). Recorded in the platform organization's audit log when one was ended. For " +
          "owners and admins of the platform's own organization.",
        security: bearerSecurity,
        params: ConsoleSessionUserParams,
        response: { 200: ref(EndedConsoleSessionsSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { userId } = request.params;
      const ended = await endConsoleSessionsOf(db, auditContextOf(request), {
        platformOrganizationId: request.organization.id,
        userId,
        now: now(),
      });
      return { success: true as const, message: 'Console sessions ended', data: { userId, ended } };
    },
  );
};
