import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isAppError } from '@platform/errors';
import { text } from '@platform/templates';
import { webhookEventOutcomes } from '@platform/webhooks';
import { Type } from '@sinclair/typebox';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { allows } from '../organizations/index.js';
import { getWebhookEvent, listWebhookEvents, redeliverEvent } from '../webhook-deliveries/index.js';
import { type DashboardDeveloperRoutesOptions, pageOf, read, write } from './developers-forms.js';
import { given, listPageQuery, queryText } from './list-page-query.js';
import { listProblemOf } from './list-problems.js';
import { eventPage } from './pages/developers-event.js';
import {
  type DeliveryLogView,
  deliveryLogPage,
  type EventFilters,
  eventFiltersQuery,
} from './pages/developers-events.js';
import { eventPath } from './pages/developers-frame.js';
import { DELIVERY_LOG_PATH } from './pages/nav.js';
import { documented } from './schemas.js';

// The delivery log of the environment shown and one event's page (docs/decisions.md#dashboard-pages), over the
// services of `GET /v1/webhooks/events`, `GET /v1/webhooks/events/:eventId` and its `redeliver`.

/** A page of the log: as many events as a page of the Verifications list. */
export const DELIVERY_LOG_PAGE_SIZE = 50;

const LogQuery = listPageQuery({ type: queryText(100), outcome: queryText(16) });
const EventQuery = Type.Object(
  { notice: queryText(32), lang: queryText(8), org: queryText(64), env: queryText(8) },
  { additionalProperties: false },
);
const EventParams = Type.Object({ id: Type.String({ maxLength: 128 }) });

const eventNotices = {
  redelivered: 'dashboard.developers.event.redelivered',
  already_scheduled: 'dashboard.developers.event.alreadyScheduled',
  test_sent: 'dashboard.developers.event.testSent',
} as const;

export const dashboardDeliveryLogRoutes: FastifyPluginAsyncTypebox<DashboardDeveloperRoutesOptions> = async (
  app,
  { db, now, guard },
) => {
  app.get(
    DELIVERY_LOG_PATH,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Developers: the delivery log of the environment shown, filtered, a page at a time (HTML)'),
        querystring: LogQuery,
      },
    },
    async (request, reply) => {
      const { locale, organization, environment, signedIn } = pageOf(request);
      const filters: EventFilters = { type: given(request.query.type), outcome: given(request.query.outcome) };
      const outcome = webhookEventOutcomes.find((each) => each === filters.outcome);
      const cursor = given(request.query.cursor);
      const view: DeliveryLogView = { locale, signedIn, filters, events: [], nextPage: null, laterPage: false };
      if (filters.outcome !== undefined && outcome === undefined) {
        return sendPage(reply, deliveryLogPage({ ...view, problem: text(locale, 'dashboard.error.unreadable') }), 400);
      }
      try {
        const page = await listWebhookEvents(db, organization.id, {
          environment,
          type: filters.type,
          outcome,
          from: undefined,
          to: undefined,
          limit: DELIVERY_LOG_PAGE_SIZE,
          cursor,
        });
        const nextPage =
          page.nextCursor === null
            ? null
            : `${DELIVERY_LOG_PATH}${eventFiltersQuery(filters, { cursor: page.nextCursor })}`;
        return sendPage(
          reply,
          deliveryLogPage({ ...view, events: page.events, nextPage, laterPage: cursor !== undefined }),
        );
      } catch (error) {
        // A cursor the log did not give: said on the page, with the filters kept.
        if (!isAppError(error) || error.statusCode !== 400) throw error;
        return sendPage(
          reply,
          deliveryLogPage({ ...view, problem: listProblemOf(request.dashboard.locale, error) }),
          400,
        );
      }
    },
  );

  app.get(
    `${DELIVERY_LOG_PATH}/:id`,
    {
      config: read,
      preHandler: guard,
      schema: {
        ...documented('Developers: one webhook event with every try (HTML)'),
        params: EventParams,
        querystring: EventQuery,
      },
    },
    async (request, reply) => {
      const { locale, organization, signedIn } = pageOf(request);
      // Another organization's event, or an id of no event: the same 404 (the service's).
      const event = await getWebhookEvent(db, organization.id, request.params.id);
      const notice = Object.entries(eventNotices).find(([name]) => name === request.query.notice)?.[1];
      return sendPage(
        reply,
        eventPage({
          locale,
          signedIn,
          event,
          mayWrite: allows(organization.role, 'developer:write'),
          notice: notice === undefined ? undefined : text(locale, notice),
        }),
      );
    },
  );

  app.post(
    `${DELIVERY_LOG_PATH}/:id/redeliver`,
    {
      config: write,
      preHandler: [app.csrfProtection, guard],
      schema: {
        ...documented('Sends a webhook event again, same webhook-id (form)'),
        params: EventParams,
        body: FormBody,
      },
    },
    async (request, reply) => {
      const { context, organization } = pageOf(request);
      const { result, event } = await redeliverEvent(db, {
        organizationId: organization.id,
        eventId: request.params.id,
        now: now(),
        audit: { actorUserId: context.userId, requestId: request.id, ip: request.ip },
      });
      request.log.info(
        { organizationId: organization.id, eventId: event.id, result },
        'Webhook redelivery from the dashboard',
      );
      const notice = result === 'scheduled' ? 'redelivered' : 'already_scheduled';
      return redirectTo(reply, `${eventPath(event.id)}?notice=${notice}`);
    },
  );
};
