// What the app and the other modules use of the activation module: its routes and schemas, the check that refuses
// live API keys and live top-ups until the organization is activated, and the state and start the dashboard shows.

export { activationRoutes } from './routes.js';
export type { ActivationView } from './schemas.js';
export { activationSharedSchemas } from './schemas.js';
export {
  type ActivationSettings,
  assertActivated,
  getActivation,
  isActivated,
  startActivation,
} from './service.js';
