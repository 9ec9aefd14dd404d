export {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_TTL_MS,
  idempotency,
  type IdempotencyContext,
  type IdempotencyMode,
  type IdempotencyOptions,
  type IdempotentResponse,
  REPLAYED_HEADER,
} from './plugin.js';
export { DEFAULT_KEY_HEADERS, keyHeaderSchema, MAX_KEY_LENGTH, readIdempotencyKey } from './key-header.js';
export { canonicalJson, type FingerprintInput, requestFingerprint } from './fingerprint.js';
export { claimIdempotencyKey, type ClaimOutcome, type ClaimTiming } from './claim.js';
export { type KeyClaim, type RecordKey, type StoredResponse } from './store.js';
export {
  DEFAULT_PURGE_BATCH_SIZE,
  purgeExpiredIdempotencyRecords,
  type PurgeSchedule,
  type PurgeScheduleOptions,
  startIdempotencyPurge,
} from './purge.js';
