// The outbox (write an event in the caller's transaction or unit of work) and everything that gets it to the customer:
// signing, the SSRF guard, the delivery worker, and the per-organization endpoint settings.

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
export { JITTER, MAX_ATTEMPTS, RETRY_SCHEDULE_MS, retryDelayMs } from './retry-schedule.js';
export {
  listSessionCallbacks,
  type SessionCallback,
  type SessionCallbackAttempt,
} from './session-callbacks-repository.js';
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
