// The review console's sessions (docs/decisions.md#console-sessions): the store the console signs in and out with,
// the operators' route that ends a user's sessions, and the end of a user's sessions when the role goes.

export { consoleSessionRoutes } from './routes.js';
export { consoleSessionSharedSchemas } from './schemas.js';
export {
  CONSOLE_SESSION_MS,
  type ConsoleSessionStore,
  consoleSessionStoreOf,
  endConsoleSessionsInTransaction,
} from './service.js';
