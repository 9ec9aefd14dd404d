// What the app and the dashboard's Developers pages use of the webhook-deliveries module.

export { webhookDeliveryRoutes } from './routes.js';
export {
  type WebhookAttemptView,
  type WebhookEventDetailView,
  type WebhookLogEventView,
  webhookDeliverySharedSchemas,
} from './schemas.js';
export { getWebhookEvent, listWebhookEvents, redeliverEvent, sendTestEvent } from './service.js';
