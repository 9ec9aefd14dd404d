export { notificationsPart } from './repository.js';
export {
  addOrganizationMembersNotification,
  type NotificationContent,
  type NotifyUserInput,
  notifyOrganizationMembers,
  notifyUser,
} from './service.js';
