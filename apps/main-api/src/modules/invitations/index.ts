// What the rest of main-api (the app, the dashboard's Team page) uses of the invitations module.

export { invitationRoutes } from './routes.js';
export type { InvitationView } from './schemas.js';
export { invitationSharedSchemas } from './schemas.js';
export {
  createInvitation,
  listInvitations,
  resendInvitation,
  revokeInvitation,
  sendInvitationEmail,
} from './service.js';
