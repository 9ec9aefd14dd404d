// What the app and the dashboard's Developers pages use of the webhooks module.

export { webhookRoutes } from './routes.js';
export { type WebhookEndpointView, type WebhookSecretView, webhookSharedSchemas } from './schemas.js';
export { listWebhookEndpoints, revealSecret, rotateSecret, updateWebhookEndpoint } from './service.js';
