import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { isAppError } from '@platform/errors';
import { readStorableDateTime } from '@platform/http';
import { text } from '@platform/templates';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendPage } from '../../shared/html-forms.js';
import { listAuditEvents } from '../audit/index.js';
import { listOrganizationMembers } from '../organizations/index.js';
import type { DashboardOrganization } from './context.js';
import { given, listPageQuery, queryText } from './list-page-query.js';
import { listProblemOf } from './list-problems.js';
import { type AuditFilters, auditPage, auditQuery } from './pages/audit.js';
import { frameOf } from './pages/layout.js';
import { AUDIT_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The Audit log page (docs/decisions.md#dashboard-pages), over the service of `GET /v1/organizations/:id/audit-events`:
// its action filter, its period (days in Nairobi here, the moments the service takes: from the day's start, to the
// next day's) and its cursor pages. The names of who acted come from the members' list.

export interface DashboardAuditRoutesOptions {
  db: Database;
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

/** A page of the log. */
export const AUDIT_PAGE_SIZE = 50;

const AuditPageQuery = listPageQuery({ action: queryText(100), from: queryText(40), to: queryText(40) });

const DAY_MS = 24 * 60 * 60 * 1000;

/** The start of a day in Nairobi (UTC+3), or undefined for anything that is not a real day. */
function startOfDay(day: string): Date | undefined {
  return /^\d{4}-\d{2}-\d{2}$/.test(day) ? readStorableDateTime(`${day}T00:00:00+03:00`) : undefined;
}

export const dashboardAuditRoutes: FastifyPluginAsyncTypebox<DashboardAuditRoutesOptions> = async (
  app,
  { db, guard },
) => {
  app.get(
    AUDIT_PATH,
    {
      config: { public: true, dashboardPage: { requires: 'audit:read' } },
      preHandler: guard,
      schema: {
        ...documented('Audit log: who changed what, filtered, a page at a time (HTML)'),
        querystring: AuditPageQuery,
      },
    },
    async (request, reply) => {
      const context = request.dashboard;
      const { locale } = context;
      const organization = context.organization as DashboardOrganization;
      const filters: AuditFilters = {
        action: given(request.query.action),
        from: given(request.query.from),
        to: given(request.query.to),
      };
      const members = await listOrganizationMembers(db, organization.id);
      const names = new Map(
        members.map((member) => [
          member.userId,
          [member.firstName, member.lastName].filter(Boolean).join(' ') || member.email,
        ]),
      );
      const view = { locale, signedIn: frameOf(context), organizationName: organization.name, filters, names };
      const empty = { events: [], nextPage: null, laterPage: false };
      const from = filters.from === undefined ? undefined : startOfDay(filters.from);
      const toDay = filters.to === undefined ? undefined : startOfDay(filters.to);
      if ((filters.from !== undefined && from === undefined) || (filters.to !== undefined && toDay === undefined)) {
        return sendPage(reply, auditPage({ ...view, ...empty, problem: text(locale, 'dashboard.audit.badDate') }), 400);
      }
      const cursor = given(request.query.cursor);
      try {
        const page = await listAuditEvents(db, organization.id, {
          action: filters.action,
          from: from?.toISOString(),
          to: toDay === undefined ? undefined : new Date(toDay.getTime() + DAY_MS).toISOString(),
          limit: AUDIT_PAGE_SIZE,
          cursor,
        });
        const nextPage =
          page.nextCursor === null ? null : `${AUDIT_PATH}${auditQuery(filters, { cursor: page.nextCursor })}`;
        return sendPage(
          reply,
          auditPage({ ...view, events: page.auditEvents, nextPage, laterPage: cursor !== undefined }),
        );
      } catch (error) {
        // A period backwards or a cursor the list did not give: said on the page, with the filters to correct.
        if (!isAppError(error) || error.statusCode !== 400) throw error;
        return sendPage(reply, auditPage({ ...view, ...empty, problem: listProblemOf(view.locale, error) }), 400);
      }
    },
  );
};
