// What the rest of main-api (the app, the dashboard) uses of the invitations module.

export { invitationRoutes } from './routes.js';
export { invitationSharedSchemas } from './schemas.js';
export { type InvitationToUser, invitationsToUser, listInvitations } from './service.js';
