export { type NotificationContent, type NotifyUserInput, notifyOrganizationMembers, notifyUser } from './service.js';
