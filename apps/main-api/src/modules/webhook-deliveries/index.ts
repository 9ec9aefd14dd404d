// What the app uses of the webhook-deliveries module.

export { webhookDeliveryRoutes } from './routes.js';
export { webhookDeliverySharedSchemas } from './schemas.js';
