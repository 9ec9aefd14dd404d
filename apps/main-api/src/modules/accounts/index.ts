// What the rest of main-api (the app, the avatars sub-module, billing's payments) uses of the accounts module: the
// routes, whether a user has a record, and a user's email address (the payer's, for the payment providers).

export { findUserEmail } from './repository.js';
export { accountRoutes } from './routes.js';
export { accountSharedSchemas } from './schemas.js';
export { userExists } from './service.js';
