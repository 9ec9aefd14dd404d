import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { notFound } from '@platform/errors';
import { text } from '@platform/templates';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FormBody, redirectTo, sendPage } from '../../shared/html-forms.js';
import { listRecentNotificationsJson, markAllNotificationsRead, markNotificationRead } from '../notifications/index.js';
import { frameOf } from './pages/layout.js';
import { NOTIFICATIONS_PATH } from './pages/nav.js';
import { type InboxNotification, notificationsPage } from './pages/notifications.js';
import { documented, PageQuery } from './schemas.js';

// The notifications inbox (docs/decisions.md#dashboard-pages): the user's own, whatever organization is shown (no
// permission), over the services of `GET /v1/notifications` and its read routes.

export interface DashboardNotificationRoutesOptions {
  db: Database;
  now: () => Date;
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

const InboxQuery = Type.Object(
  {
    notice: Type.Optional(Type.String({ maxLength: 16 })),
    lang: Type.Optional(Type.String({ maxLength: 8 })),
    org: Type.Optional(Type.String({ maxLength: 64 })),
    env: Type.Optional(Type.String({ maxLength: 8 })),
  },
  { additionalProperties: false },
);
const NotificationParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

const NOTIFICATION_NOT_FOUND = 'Notification not found';

export const dashboardNotificationRoutes: FastifyPluginAsyncTypebox<DashboardNotificationRoutesOptions> = async (
  app,
  { db, now, guard },
) => {
  const own = { public: true, dashboardPage: {} } as const;
  const form = { config: { ...own, idempotency: 'none' } as const, preHandler: [app.csrfProtection, guard] };

  app.get(
    NOTIFICATIONS_PATH,
    {
      config: own,
      preHandler: guard,
      schema: { ...documented('Notifications: your newest, with the unread count (HTML)'), querystring: InboxQuery },
    },
    async (request, reply) => {
      const context = request.dashboard;
      // The API's answer as it is: PostgreSQL builds it as JSON (docs/benchmarks.md), read back here.
      const inbox = JSON.parse(await listRecentNotificationsJson(db, context.userId)) as {
        notifications: InboxNotification[];
        unreadCount: number;
      };
      const notice =
        request.query.notice === 'read' || request.query.notice === 'readAll'
          ? text(context.locale, `dashboard.notifications.notice.${request.query.notice}`)
          : undefined;
      return sendPage(
        reply,
        notificationsPage({
          locale: context.locale,
          signedIn: frameOf(context),
          notifications: inbox.notifications,
          unreadCount: inbox.unreadCount,
          organizations: context.organizations,
          notice,
        }),
      );
    },
  );

  app.post(
    `${NOTIFICATIONS_PATH}/read-all`,
    {
      ...form,
      schema: { ...documented('Marks all your notifications read (form)'), querystring: PageQuery, body: FormBody },
    },
    async (request, reply) => {
      await markAllNotificationsRead(db, request.dashboard.userId, now());
      return redirectTo(reply, `${NOTIFICATIONS_PATH}?notice=readAll`);
    },
  );

  app.post(
    `${NOTIFICATIONS_PATH}/:id/read`,
    {
      ...form,
      schema: {
        ...documented('Marks one of your notifications read (form)'),
        params: NotificationParams,
        querystring: PageQuery,
        body: FormBody,
      },
    },
    async (request, reply) => {
      // Another user's notification, an unknown id and one that is not a UUID are the same 404.
      const marked = await markNotificationRead(db, request.dashboard.userId, request.params.id, now());
      if (!marked) throw notFound(NOTIFICATION_NOT_FOUND);
      return redirectTo(reply, `${NOTIFICATIONS_PATH}?notice=read`);
    },
  );
};
