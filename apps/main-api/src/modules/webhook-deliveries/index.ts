// What the app uses of the webhook-deliveries module, and the dashboard: the delivery log.

export { webhookDeliveryRoutes } from './routes.js';
export { webhookDeliverySharedSchemas } from './schemas.js';
export { listWebhookEvents } from './service.js';
