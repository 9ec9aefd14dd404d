import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { auditContextOf } from '../../shared/audit-context.js';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import {
  EventIdParams,
  ListWebhookEventsQuery,
  RedeliveryResponseSchema,
  TestEventParams,
  TestEventResponseSchema,
  WebhookEventListSchema,
  WebhookEventResponseSchema,
} from './schemas.js';
import { getWebhookEvent, listWebhookEvents, redeliverEvent, sendTestEvent } from './service.js';

export interface WebhookDeliveryRoutesOptions {
  db: Database;
  now: () => Date;
}

export const REDELIVERY_SCHEDULED = 'Redelivery scheduled: the event is sent again now, with the same webhook-id.';
export const REDELIVERY_ALREADY_SCHEDULED = 'The event is already being delivered; no second delivery was added.';
export const TEST_EVENT_SENT = 'Test event sent: it is delivered, signed and logged like every event.';

/**
 * The organization's delivery log, redelivery and test events (docs/decisions.md#delivery-log): every member reads
 * the log (docs/decisions.md#who-reads-the-delivery-log); owners, admins and developers redeliver and send test events
 * (the role policy). The organization is the one named by X-Organization-Id.
 */
export const webhookDeliveryRoutes: FastifyPluginAsyncTypebox<WebhookDeliveryRoutesOptions> = async (
  app,
  { db, now },
) => {
  const tags = ['webhooks'];
  const read = { organization: true, requires: 'organization:read' } as const;
  const write = { organization: true, requires: 'developer:write' } as const;

  app.get(
    '/v1/webhooks/events',
    {
      config: read,
      schema: {
        tags,
        summary: "The delivery log: events sent to the organization's endpoints",
        description:
          'Every event of the organization, newest first, a page at a time (pass nextCursor as cursor), each with ' +
          'its outcome and latest try. Filter by environment, type (exact), outcome, and creation time: from ' +
          '(inclusive) and to (exclusive), ISO 8601 date-times with a time zone; from after to is 400.',
        security: bearerSecurity,
        querystring: ListWebhookEventsQuery,
        response: { 200: ref(WebhookEventListSchema), ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { environment, type, outcome, from, to, limit, cursor } = request.query;
      const data = await listWebhookEvents(db, request.organization.id, {
        environment,
        type,
        outcome,
        from,
        to,
        limit,
        cursor,
      });
      return { success: true as const, data };
    },
  );

  app.get(
    '/v1/webhooks/events/:eventId',
    {
      config: read,
      schema: {
        tags,
        summary: 'One event with every try',
        description:
          'The body sent, and each try of each delivery: time, status code, latency, outcome, error and a scrubbed ' +
          "excerpt of the answer. Another organization's event is the same 404 as one that does not exist.",
        security: bearerSecurity,
        params: EventIdParams,
        response: { 200: ref(WebhookEventResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getWebhookEvent(db, request.organization.id, request.params.eventId),
    }),
  );

  app.post(
    '/v1/webhooks/events/:eventId/redeliver',
    {
      config: write,
      schema: {
        tags,
        summary: 'Send an event again',
        description:
          'A new delivery of the same event, with the same webhook-id and body (receivers deduplicate by it), tried ' +
          "now and retried on the usual schedule, to where the event goes now: its session's callbackUrl, or the " +
          "environment's default URL as currently set. An event being delivered gets no second delivery: its next " +
          'try is made due now, so a double click schedules one. Answers 202; follow the event in the log.',
        security: bearerSecurity,
        params: EventIdParams,
        response: { 202: ref(RedeliveryResponseSchema), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { result, event } = await redeliverEvent(db, {
        organizationId: request.organization.id,
        eventId: request.params.eventId,
        now: now(),
        audit: auditContextOf(request),
      });
      request.log.info({ organizationId: request.organization.id, eventId: event.id, result }, 'Webhook redelivery');
      const message = result === 'scheduled' ? REDELIVERY_SCHEDULED : REDELIVERY_ALREADY_SCHEDULED;
      return reply.code(202).send({ success: true as const, message, data: { result, event } });
    },
  );

  app.post(
    '/v1/webhooks/endpoints/:environment/test',
    {
      config: write,
      schema: {
        tags,
        summary: 'Send a test event to the default URL',
        description:
          "A `webhook.test` event to the environment's default URL, through the same outbox: signed with the " +
          "environment's secret, retried and shown in the delivery log like any event. 409 when the environment " +
          'has no default URL.',
        security: bearerSecurity,
        params: TestEventParams,
        response: { 202: ref(TestEventResponseSchema), ...errorResponses(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { environment } = request.params;
      const data = await sendTestEvent(db, {
        organizationId: request.organization.id,
        environment,
        now: now(),
        audit: auditContextOf(request),
      });
      request.log.info(
        { organizationId: request.organization.id, environment, eventId: data.eventId },
        'Webhook test event',
      );
      return reply.code(202).send({ success: true as const, message: TEST_EVENT_SENT, data });
    },
  );
};
