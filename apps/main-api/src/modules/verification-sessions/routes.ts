import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { errorResponses } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import {
  GetOrganizationSessionQuery,
  ListOrganizationSessionsQuery,
  OrganizationSessionCanceledSchema,
  OrganizationSessionDetailResponseSchema,
  OrganizationSessionListSchema,
  OrganizationSessionParams,
} from './schemas.js';
import { cancelOrganizationSession, getOrganizationSession, listOrganizationSessions } from './service.js';
import { getOrganizationSessionWithVerifiedData } from './verified-data.js';

export interface VerificationSessionRoutesOptions {
  db: Database;
  now: () => Date;
  /** The platform's own organization, whose live kyc sessions set their user's kycStatus (as backend-api's do). */
  platformOrganizationId: string | undefined;
  /** Opens what a verification verified (`expand=verified_outputs`); the reviews' vault. */
  vault: Pick<DocumentVault, 'open'>;
}

const VERIFICATION_SESSION_CANCELED = 'Verification session canceled';

/**
 * The organization's verification sessions (docs/decisions.md#organization-session-list), the organization named by
 * X-Organization-Id: the list, one session with its timeline, and the cancel. A session id is its hosted page's
 * credential, so every route here is logged by its pattern (`urlCarriesSecret`), the list too: its cursor holds one.
 */
export const verificationSessionRoutes: FastifyPluginAsyncTypebox<VerificationSessionRoutesOptions> = async (
  app,
  { db, now, platformOrganizationId, vault },
) => {
  const tags = ['verification-sessions'];
  const read = { organization: true, requires: 'verifications:read', urlCarriesSecret: true } as const;
  const cancel = { organization: true, requires: 'verifications:cancel', urlCarriesSecret: true } as const;

  app.get(
    '/v1/verification-sessions',
    {
      config: read,
      schema: {
        tags,
        summary: "List the organization's verification sessions",
        description:
          'Live and test sessions, newest first, a page at a time (limit 1-100, default 50; pass nextCursor as ' +
          'cursor for the next page), each as backend-api answers it to an API key but without the hosted page URL. ' +
          'Filters: status, type, environment, externalEndUserId, and from (inclusive) / to: a date is that day in ' +
          'Nairobi (UTC+3; a `to` day is included), a date-time with a time zone an exact moment (`to` excluded). ' +
          'A bad filter or a cursor this API did not return is a 400.',
        security: bearerSecurity,
        querystring: ListOrganizationSessionsQuery,
        response: { 200: ref(OrganizationSessionListSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await listOrganizationSessions(db, request.organization.id, request.query),
    }),
  );

  app.get(
    '/v1/verification-sessions/:id',
    {
      config: read,
      schema: {
        tags,
        summary: 'A verification session with its timeline',
        description:
          'The session as the list shows it, with every status change (who made it and why), every callback sent ' +
          'about it with each delivery attempt (time, status code, outcome), and the latest decision with its ' +
          'reason. Never the submitted details or documents. `expand=verified_outputs` adds `verifiedOutputs`, what ' +
          'the verification confirmed (names, date of birth, ID type and number, document expiry, nationality; for a ' +
          'business its registered name, number, status, directors and owners): null before a `verified` decision ' +
          'and after erasure, absent without the expansion. Only for owners and admins (the permission ' +
          '`verifications:read_personal_data`; else 403 `forbidden`, nothing read), and every such read is recorded ' +
          'in the audit log as `verification.verified_data_viewed`. Any other `expand` is a 400. An unknown id and ' +
          "another organization's session are the same 404.",
        security: bearerSecurity,
        params: OrganizationSessionParams,
        querystring: GetOrganizationSessionQuery,
        response: { 200: ref(OrganizationSessionDetailResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      if (request.query.expand !== 'verified_outputs') {
        return {
          success: true as const,
          data: await getOrganizationSession(db, request.organization.id, request.params.id),
        };
      }
      const data = await getOrganizationSessionWithVerifiedData(db, vault, {
        organizationId: request.organization.id,
        sessionId: request.params.id,
        role: request.organization.role,
        audit: auditContextOf(request),
      });
      return { success: true as const, data };
    },
  );

  app.post(
    '/v1/verification-sessions/:id/cancel',
    {
      config: cancel,
      schema: {
        tags,
        summary: 'Cancel a verification session',
        description:
          'Cancels a session that is `pending` or `requires_input`, as `POST /v1/verify/sessions/:id/cancel` does ' +
          'with an API key: its hold is released to the wallet, the verification_session.canceled callback is sent, ' +
          'and the cancel is recorded in the audit log (verification_session.canceled). Any other status, a ' +
          "session already canceled included, is 409 and changes nothing. An unknown id and another organization's " +
          'session are the same 404.',
        security: bearerSecurity,
        params: OrganizationSessionParams,
        response: { 200: ref(OrganizationSessionCanceledSchema), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const session = await cancelOrganizationSession(
        db,
        {
          organizationId: request.organization.id,
          sessionId: request.params.id,
          audit: auditContextOf(request),
          now: now(),
        },
        { platformOrganizationId },
      );
      request.log.info({ organizationId: request.organization.id }, 'Verification session canceled');
      return { success: true as const, message: VERIFICATION_SESSION_CANCELED, data: session };
    },
  );
};
