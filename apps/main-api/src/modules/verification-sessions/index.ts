// What the app uses of the verification-sessions module.

export { verificationSessionRoutes } from './routes.js';
export { verificationSessionSharedSchemas } from './schemas.js';
