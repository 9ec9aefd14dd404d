export {
  addOrganizationMembersNotification,
  type NotificationContent,
  type NotifyUserInput,
  notifyOrganizationMembers,
  notifyUser,
} from './service.js';
export { notificationsPart } from './repository.js';
