import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { notFound } from '@platform/errors';
import { errorResponses, SuccessOnly } from '@platform/http';
import { bearerSecurity } from '../../shared/route-schemas.js';
import { ref } from '../../shared/schema-ref.js';
import { NotificationIdParams, NotificationListSchema } from './schemas.js';
import { listRecentNotificationsJson, markAllNotificationsRead, markNotificationRead } from './service.js';

export interface NotificationRoutesOptions {
  db: Database;
  now: () => Date;
}

export const notificationRoutes: FastifyPluginAsyncTypebox<NotificationRoutesOptions> = async (app, { db, now }) => {
  const tags = ['notifications'];

  app.get(
    '/v1/notifications',
    {
      schema: {
        tags,
        summary: "List the user's 50 most recent notifications with the unread count",
        security: bearerSecurity,
        response: { 200: ref(NotificationListSchema), ...errorResponses(401) },
      },
    },
    // PostgreSQL answers `data` as JSON text in the schema's shape; it goes out as it is (see the repository).
    async (request, reply) => {
      const data = await listRecentNotificationsJson(db, request.user.id);
      return reply.type('application/json; charset=utf-8').send(`{"success":true,"data":${data}}`);
    },
  );

  // A static segment, so it never competes with /:id/read (find-my-way prefers static matches anyway).
  app.patch(
    '/v1/notifications/read-all',
    {
      schema: {
        tags,
        summary: "Mark all of the user's notifications read",
        security: bearerSecurity,
        response: { 200: ref(SuccessOnly), ...errorResponses(401) },
      },
    },
    async (request) => {
      await markAllNotificationsRead(db, request.user.id, now());
      return { success: true as const };
    },
  );

  app.patch(
    '/v1/notifications/:id/read',
    {
      schema: {
        tags,
        summary: 'Mark one notification read',
        description:
          'Marking an already read notification succeeds and keeps its first read time. An unknown id and ' +
          "another user's id give the same 404.",
        security: bearerSecurity,
        params: NotificationIdParams,
        response: { 200: ref(SuccessOnly), ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const marked = await markNotificationRead(db, request.user.id, request.params.id, now());
      if (!marked) throw notFound('Notification not found');
      return { success: true as const };
    },
  );
};
