// The outbox (write an event in the caller's transaction) and everything that gets it to the customer:
// signing, the SSRF guard, the delivery worker, and the per-organization endpoint settings.
export {
  enqueueWebhookEvent,
  type EnqueueWebhookEventInput,
  newWebhookEventId,
  type WebhookEventBody,
} from './outbox.js';
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
  type EndpointRef,
  ensureWebhookEndpoint,
  getWebhookEndpointSettings,
  revealWebhookSecret,
  rotateWebhookSecret,
  ROTATION_GRACE_PERIOD_MS,
  setDefaultWebhookUrl,
  signingSecretsOf,
  type WebhookEndpointSettings,
} from './endpoints.js';
export { generateWebhookSecret, signatureFor, signWebhook, type WebhookHeaders } from './signature.js';
export { JITTER, MAX_ATTEMPTS, RETRY_SCHEDULE_MS, retryDelayMs } from './retry-schedule.js';
export { isPublicAddress, nonPublicRangeOf } from './address-policy.js';
export {
  type CallbackUrlCheck,
  createGuardedLookup,
  type HostResolver,
  systemResolver,
  type TargetPolicy,
  validateCallbackUrl,
  WebhookTargetRefusedError,
} from './target-guard.js';
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
