import { notificationTypes } from '@platform/db';
import { Type } from '@sinclair/typebox';
import { ref } from '../../shared/schema-ref.js';

export const NotificationSchema = Type.Object(
  {
    id: Type.String({ description: 'Notification identifier (UUID).' }),
    title: Type.String({ description: 'Short title.' }),
    message: Type.String({ description: 'Body text.' }),
    type: Type.Union(
      notificationTypes.map((type) => Type.Literal(type)),
      { description: 'Severity: info, warning, success or error.' },
    ),
    isRead: Type.Boolean({ description: 'True once the user has read it.' }),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 timestamp in UTC.' }),
    actionUrl: Type.Union([Type.String(), Type.Null()], { description: 'In-app link path; null when there is none.' }),
    organizationId: Type.Union([Type.String(), Type.Null()], {
      description: 'The organization it concerns (UUID); null when it concerns none, or that organization was deleted.',
    }),
  },
  { $id: 'Notification', additionalProperties: false },
);

export const NotificationListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      notifications: Type.Array(ref(NotificationSchema), {
        description: 'The 50 most recent notifications, newest first.',
      }),
      unreadCount: Type.Integer({ minimum: 0, description: 'All unread notifications of the user, for a badge.' }),
    }),
  },
  { $id: 'NotificationList' },
);

export const NotificationIdParams = Type.Object({
  id: Type.String({ description: 'Notification identifier.' }),
});

/** Schemas registered once on the app so routes and OpenAPI refer to them by name. */
export const notificationSharedSchemas = [NotificationSchema, NotificationListSchema];
