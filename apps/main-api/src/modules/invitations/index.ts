// What the rest of main-api (the app, the dashboard) uses of the invitations module.

export { invitationRoutes } from './routes.js';
export type { InvitationView } from './schemas.js';
export { invitationSharedSchemas } from './schemas.js';
export {
  ALREADY_A_MEMBER,
  acceptInvitation,
  createInvitation,
  INVITATION_PAGE_PATH,
  type InvitationForInvitee,
  type InvitationToUser,
  invitationForInvitee,
  invitationsToUser,
  listInvitations,
  PENDING_INVITATION_EXISTS,
  resendInvitation,
  revokeInvitation,
  sendInvitationEmail,
} from './service.js';
