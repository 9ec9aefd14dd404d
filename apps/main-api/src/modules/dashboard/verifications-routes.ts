import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Database, isUuid, verificationStatuses, verificationTypes } from '@platform/db';
import { isAppError, notFound } from '@platform/errors';
import { text } from '@platform/templates';
import { SESSION_NOT_FOUND } from '@platform/verification-lifecycle';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { allows } from '../organizations/index.js';
import {
  cancelOrganizationSession,
  getOrganizationSession,
  listOrganizationSessions,
} from '../verification-sessions/index.js';
import type { DashboardOrganization } from './context.js';
import { given, listPageQuery, queryText } from './list-page-query.js';
import { listProblemOf } from './list-problems.js';
import { frameOf } from './pages/layout.js';
import { VERIFICATIONS_PATH } from './pages/nav.js';
import { sessionPage } from './pages/session.js';
import { filtersQuery, sessionPath, type VerificationFilters, verificationsPage } from './pages/verifications.js';
import { documented } from './schemas.js';

// The Verifications pages (docs/decisions.md#dashboard-pages), over the same service as `GET /v1/verification-sessions`
// and its siblings: the list of the environment shown with its filters and cursor pages, one session with its
// timeline, and the cancel. A session id is its hosted page's credential, so these routes are logged by their
// pattern (`urlCarriesSecret`), the list too: its cursor holds an id.

export interface DashboardVerificationRoutesOptions {
  db: Database;
  now: () => Date;
  platformOrganizationId: string | undefined;
  /** The page guard of the dashboard (page-access.ts). */
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** A page of the list: as many rows as the API's default page. */
export const VERIFICATIONS_PAGE_SIZE = 50;

const VerificationsQuery = listPageQuery({
  status: queryText(32),
  type: queryText(8),
  externalEndUserId: queryText(255),
  from: queryText(40),
  to: queryText(40),
});
const SessionPageQuery = Type.Object(
  { notice: queryText(16), lang: queryText(8), org: queryText(64), env: queryText(8) },
  { additionalProperties: false },
);
const SessionPageParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/** The path's session id; one that is not a UUID names no session: the same 404 as an unknown one. */
function sessionIdOf(id: string): string {
  if (!isUuid(id)) throw notFound(SESSION_NOT_FOUND);
  return id;
}

export const dashboardVerificationRoutes: FastifyPluginAsyncTypebox<DashboardVerificationRoutesOptions> = async (
  app,
  { db, now, platformOrganizationId, guard },
) => {
  const read = { public: true, urlCarriesSecret: true, dashboardPage: { requires: 'verifications:read' } } as const;
  const cancel = {
    public: true,
    idempotency: 'none',
    urlCarriesSecret: true,
    dashboardPage: { requires: 'verifications:cancel' },
  } as const;
  const organizationOf = (request: FastifyRequest) => request.dashboard.organization as DashboardOrganization;

  app.get(
    VERIFICATIONS_PATH,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Verifications: the sessions, filtered, a page at a time (HTML)'),
        querystring: VerificationsQuery,
      },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const { locale, environment } = context;
      const organization = organizationOf(request);
      const filters: VerificationFilters = {
        status: given(request.query.status),
        type: given(request.query.type),
        externalEndUserId: given(request.query.externalEndUserId),
        from: given(request.query.from),
        to: given(request.query.to),
      };
      const status = verificationStatuses.find((each) => each === filters.status);
      const type = verificationTypes.find((each) => each === filters.type);
      const view = { locale, signedIn: frameOf(context), organizationName: organization.name, filters };
      const cursor = given(request.query.cursor);
      if (
        (filters.status !== undefined && status === undefined) ||
        (filters.type !== undefined && type === undefined)
      ) {
        const problem = text(locale, 'dashboard.error.unreadable');
        return sendPage(
          reply,
          verificationsPage({ ...view, sessions: [], nextPage: null, laterPage: false, problem }),
          400,
        );
      }
      try {
        const page = await listOrganizationSessions(db, organization.id, {
          ...filters,
          status,
          type,
          environment,
          limit: VERIFICATIONS_PAGE_SIZE,
          cursor,
        });
        const nextPage =
          page.nextCursor === null
            ? null
            : `${VERIFICATIONS_PATH}${filtersQuery(filters, { cursor: page.nextCursor })}`;
        return sendPage(
          reply,
          verificationsPage({ ...view, sessions: page.sessions, nextPage, laterPage: cursor !== undefined }),
        );
      } catch (error) {
        // A period or a cursor the list does not take: said on the page, with the filters to correct.
        if (!isAppError(error) || error.statusCode !== 400) throw error;
        const problem = listProblemOf(request.dashboard.locale, error);
        return sendPage(
          reply,
          verificationsPage({ ...view, sessions: [], nextPage: null, laterPage: false, problem }),
          400,
        );
      }
    },
  );

  app.get(
    `${VERIFICATIONS_PATH}/:id`,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('One verification session with its timeline (HTML)'),
        params: SessionPageParams,
        querystring: SessionPageQuery,
      },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const organization = organizationOf(request);
      const detail = await getOrganizationSession(db, organization.id, sessionIdOf(request.params.id));
      return sendPage(
        reply,
        sessionPage({
          locale: context.locale,
          signedIn: frameOf(context),
          detail,
          mayCancel: allows(organization.role, 'verifications:cancel'),
          notice: request.query.notice === 'canceled' ? text(context.locale, 'dashboard.session.canceled') : undefined,
        }),
      );
    },
  );

  app.post(
    `${VERIFICATIONS_PATH}/:id/cancel`,
    {
      config: cancel,
      preHandler: [app.csrfProtection, guard],
      schema: { ...documented('Cancels a verification session (form)'), params: SessionPageParams, body: FormBody },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const organization = organizationOf(request);
      const sessionId = sessionIdOf(request.params.id);
      try {
        await cancelOrganizationSession(
          db,
          {
            organizationId: organization.id,
            sessionId,
            audit: { actorUserId: context.userId, requestId: request.id, ip: request.ip },
            now: now(),
          },
          { platformOrganizationId },
        );
      } catch (error) {
        // Already final (a 409): the page shows the session as it is now, with why nothing was canceled.
        if (!isAppError(error) || error.statusCode !== 409) throw error;
        const detail = await getOrganizationSession(db, organization.id, sessionId);
        const page = sessionPage({
          locale: context.locale,
          signedIn: frameOf(context),
          detail,
          mayCancel: true,
          problem: error.message,
        });
        return sendPage(reply, page, 409);
      }
      request.log.info({ organizationId: organization.id }, 'Verification session canceled from the dashboard');
      return redirectTo(reply, `${sessionPath(sessionId)}?notice=canceled`);
    },
  );
};
