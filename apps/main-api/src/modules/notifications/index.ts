// What the app uses of the notifications module.

export { notificationRoutes } from './routes.js';
export { notificationSharedSchemas } from './schemas.js';
export {
  countUnreadNotifications,
  listRecentNotificationsJson,
  markAllNotificationsRead,
  markNotificationRead,
} from './service.js';
