// What the app uses of the verification-sessions module.

export { verificationSessionRoutes } from './routes.js';
export type { OrganizationSessionDetailView, OrganizationSessionView } from './schemas.js';
export { verificationSessionSharedSchemas } from './schemas.js';
export { cancelOrganizationSession, getOrganizationSession, listOrganizationSessions } from './service.js';
