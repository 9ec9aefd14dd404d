// What the app and the other modules use of the activation module: its routes and schemas, the check that refuses
// live API keys and live top-ups until the organization is activated, and whether it is (the dashboard's Home).

export { activationRoutes } from './routes.js';
export { activationSharedSchemas } from './schemas.js';
export { assertActivated, isActivated } from './service.js';
