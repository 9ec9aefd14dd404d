// What the rest of main-api (the app) uses of the invitations module.

export { invitationRoutes } from './routes.js';
export { invitationSharedSchemas } from './schemas.js';
