// What the app uses of the webhooks module.

export { webhookRoutes } from './routes.js';
export { webhookSharedSchemas } from './schemas.js';
