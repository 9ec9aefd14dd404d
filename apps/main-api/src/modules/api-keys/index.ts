// What the rest of main-api (the app, its configuration) uses of the api-keys module.

export { apiKeyRoutes } from './routes.js';
export { API_KEY_RATE_LIMIT_MAX, apiKeySharedSchemas } from './schemas.js';
