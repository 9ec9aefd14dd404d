/**
 * Port to a private object store: a place that keeps bytes under keys and never serves them to anyone but this
 * platform's services. No adapter has a public URL.
 */
export interface PrivateObjectStore {
  /** Stores `bytes` under `key`, replacing any object already there. Rejects an unsafe key without writing. */
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** The bytes stored under `key`, or null when there are none (or the key is unsafe, so nothing can be there). */
  get(key: string): Promise<Buffer | null>;
  /** Removes the object under `key`; removing a missing object succeeds (idempotent). */
  delete(key: string): Promise<void>;
  /**
   * Removes every object whose key starts with `prefix`, which must be a safe key followed by `/` (a folder such
   * as `kyc/<sessionId>/`), so `sessions/a1/` never reaches `sessions/a10/`. Idempotent.
   */
  deletePrefix(prefix: string): Promise<void>;
}

const MAX_KEY_LENGTH = 512;
const SEGMENT = /^[A-Za-z0-9_.-]+$/;

/**
 * True when `key` is a plain relative path: `/`-separated segments of letters, digits, `_`, `-` and `.`, none of
 * which is `.` or `..`, at most 512 characters. Adapters refuse any other key, so no key can address anything
 * outside the store (no `../`, no absolute path, no backslash, no empty segment).
 */
export function isSafeObjectKey(key: string): boolean {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH) return false;
  return key.split('/').every((segment) => SEGMENT.test(segment) && segment !== '.' && segment !== '..');
}

/** True when `prefix` is a safe key followed by `/`: the only prefixes `deletePrefix` accepts. */
function isSafeObjectPrefix(prefix: string): boolean {
  return prefix.endsWith('/') && isSafeObjectKey(prefix.slice(0, -1));
}

export function assertSafeObjectKey(key: string): void {
  if (!isSafeObjectKey(key)) throw new Error(`Refusing an unsafe object key: ${JSON.stringify(key)}`);
}

export function assertSafeObjectPrefix(prefix: string): void {
  if (!isSafeObjectPrefix(prefix)) {
    throw new Error(`Refusing an unsafe object prefix (a safe key followed by "/"): ${JSON.stringify(prefix)}`);
  }
}
