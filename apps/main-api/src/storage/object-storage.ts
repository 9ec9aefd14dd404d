import type { Readable } from 'node:stream';

/** An object to store under `key` (a relative, slash-separated path such as `avatars/<user>/<uuid>.png`). */
export interface ObjectToStore {
  key: string;
  body: Buffer;
  contentType: string;
}

/** A stored object read back by the service, for adapters whose objects the service serves itself. */
export interface StoredObject {
  body: Readable;
  contentType: string;
  sizeBytes: number;
}

/** Port to wherever uploaded files live. */
export interface ObjectStorage {
  /** Stores the object (replacing any object under the same key) and returns its public URL. */
  put(object: ObjectToStore): Promise<{ url: string }>;
  /**
   * Present on adapters whose files this service serves at GET /v1/files/*. Resolves to null when no
   * object exists under the key.
   */
  read?(key: string): Promise<StoredObject | null>;
}

const MIME_TYPE_BY_EXTENSION: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

/** Content type of a stored image from its key's extension (the upload route picks the extension). */
export function contentTypeOfKey(key: string): string {
  const extension = key.slice(key.lastIndexOf('.') + 1).toLowerCase();
  return MIME_TYPE_BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/**
 * True when `key` is a plain relative path: segments of letters, digits, `_`, `-` and `.`, none of which is
 * `.` or `..`. Adapters refuse any other key, so a key can never address something outside the store.
 */
export function isSafeObjectKey(key: string): boolean {
  if (key.length === 0 || key.length > 512) return false;
  return key.split('/').every((segment) => /^[A-Za-z0-9_.-]+$/.test(segment) && segment !== '.' && segment !== '..');
}
