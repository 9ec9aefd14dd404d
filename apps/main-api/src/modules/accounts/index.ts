// What the rest of main-api (the app, the avatars sub-module) uses of the accounts module.

export { accountRoutes } from './routes.js';
export { accountSharedSchemas } from './schemas.js';
export { userExists } from './service.js';
