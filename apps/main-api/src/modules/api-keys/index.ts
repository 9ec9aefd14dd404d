// What the rest of main-api (the app, its configuration, the dashboard's Developers pages) uses of the api-keys module.

export { API_KEY_NOT_FOUND, apiKeyRoutes } from './routes.js';
export { API_KEY_RATE_LIMIT_MAX, type ApiKeyView, apiKeySharedSchemas, type CreatedApiKeyView } from './schemas.js';
export { issueApiKey, keyRateLimitMaxOf, listApiKeys, revokeOrganizationApiKey } from './service.js';
