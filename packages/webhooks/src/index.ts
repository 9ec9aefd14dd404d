// The outbox (write an event in the caller's transaction or unit of work) and everything that gets it to the customer:
// signing, the SSRF guard, the delivery worker, the per-organization endpoint settings, and the delivery log with
// redelivery and test events.

export { isPublicAddress, nonPublicRangeOf } from './address-policy.js';
export {
  bodyOf,
  createWebhookDelivery,
  type DeliveryRunSummary,
  NO_TARGET_ERROR,
  startWebhookDelivery,
  type WebhookDelivery,
  type WebhookDeliveryOptions,
  type WebhookLogger,
} from './delivery.js';
export {
  getWebhookLogEvent,
  isWebhookEventId,
  listWebhookLog,
  outcomeOf,
  type Redelivery,
  redeliverWebhookEvent,
  sendTestWebhookEvent,
  TEST_EVENT_TYPE,
  type WebhookDeliveryAttempt,
  type WebhookEventOutcome,
  type WebhookLogEntry,
  type WebhookLogQuery,
  webhookEventOutcomes,
} from './delivery-log.js';
export {
  type EndpointRef,
  ensureWebhookEndpoint,
  getWebhookEndpointSettings,
  ROTATION_GRACE_PERIOD_MS,
  revealWebhookSecret,
  rotateWebhookSecret,
  setDefaultWebhookUrl,
  signingSecretsOf,
  type WebhookEndpointSettings,
} from './endpoints.js';
export {
  createWebhookSender,
  DEFAULT_TIMEOUT_MS,
  type RequestTimer,
  startRequestTimer,
  type WebhookRequest,
  type WebhookResponse,
  type WebhookSender,
  type WebhookSenderOptions,
} from './http-sender.js';
export {
  addWebhookEvent,
  type EnqueueWebhookEventInput,
  enqueueWebhookEvent,
  newWebhookEventId,
  type WebhookEventBody,
} from './outbox.js';
export {
  EXCERPT_MAX_CHARACTERS,
  EXCERPT_READ_BYTES,
  REDACTED,
  scrubResponseExcerpt,
} from './response-excerpt.js';
export { JITTER, MAX_ATTEMPTS, RETRY_SCHEDULE_MS, retryDelayMs } from './retry-schedule.js';
export { generateWebhookSecret, signatureFor, signWebhook, type WebhookHeaders } from './signature.js';
export {
  type CallbackUrlCheck,
  createGuardedLookup,
  type HostResolver,
  systemResolver,
  type TargetPolicy,
  validateCallbackUrl,
  WebhookTargetRefusedError,
} from './target-guard.js';
