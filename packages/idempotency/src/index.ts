export { type ClaimOutcome, type ClaimTiming, claimIdempotencyKey } from './claim.js';
export { canonicalJson, type FingerprintInput, requestFingerprint } from './fingerprint.js';
export { type HeldKeyRequest, runOnceForKey } from './held-key.js';
export { KEY_HEADERS, keyHeaderSchema, MAX_KEY_LENGTH, readIdempotencyKey } from './key-header.js';
export {
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_TTL_MS,
  type IdempotencyContext,
  type IdempotencyMode,
  type IdempotencyOptions,
  type IdempotentResponse,
  idempotency,
  REPLAYED_HEADER,
} from './plugin.js';
export {
  DEFAULT_PURGE_BATCH_SIZE,
  type PurgeSchedule,
  type PurgeScheduleOptions,
  purgeExpiredIdempotencyRecords,
  startIdempotencyPurge,
} from './purge.js';
export type { KeyClaim, RecordKey, StoredResponse } from './repository.js';
