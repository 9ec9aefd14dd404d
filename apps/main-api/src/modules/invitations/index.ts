// What the rest of main-api (the app, the dashboard's invitation page) uses of the invitations module.

export { invitationRoutes } from './routes.js';
export { invitationSharedSchemas } from './schemas.js';
export {
  acceptInvitation,
  INVITATION_PAGE_PATH,
  type InvitationForInvitee,
  invitationForInvitee,
} from './service.js';
