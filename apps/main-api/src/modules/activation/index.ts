// What the app and the other modules use of the activation module: its routes and schemas, and the check that
// refuses live API keys and live top-ups until the organization is activated.

export { activationRoutes } from './routes.js';
export { activationSharedSchemas } from './schemas.js';
export { assertActivated } from './service.js';
