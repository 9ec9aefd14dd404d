export {
  type NotificationContent,
  type NotifyUserInput,
  notifyOrganizationMembers,
  notifyUser,
  organizationMembersNotificationRider,
} from './service.js';
