import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { open, rewrap, seal } from './format.js';
import type { DocumentKeyring } from './keyring.js';
import { assertSafeObjectKey, type PrivateObjectStore } from './object-store.js';

export interface DocumentToStore {
  /** Where the document goes: a plain relative path such as `kyc/<sessionId>/<documentId>`. */
  key: string;
  bytes: Uint8Array;
  /** Kept encrypted with the bytes; 1-255 printable ASCII characters. */
  contentType: string;
}

export interface StoredDocument {
  key: string;
  /** The master key that wraps this document's data key (the keyring's current key when stored). */
  keyId: string;
  /** Size of the document itself, in bytes. */
  size: number;
  /** SHA-256 of the document itself (hex), for integrity and to spot the same file sent twice. */
  sha256: string;
}

export interface ReadDocument {
  bytes: Buffer;
  contentType: string;
  keyId: string;
}

/** Identity documents, encrypted each under its own data key before they reach the object store. */
export interface DocumentVault {
  /** Encrypts and stores the document, replacing any document under the same key. */
  store(document: DocumentToStore): Promise<StoredDocument>;
  /**
   * The decrypted document, or null when nothing is stored under the key. Throws DocumentVaultError when the
   * stored file cannot be read: changed, unknown key id, or not a vault file.
   */
  read(key: string): Promise<ReadDocument | null>;
  /** Removes the document; erasing a missing document succeeds. */
  erase(key: string): Promise<void>;
  /** Removes every document under `prefix` (a safe key followed by `/`, such as `kyc/<sessionId>/`). */
  eraseAll(prefix: string): Promise<void>;
  /**
   * Wraps the document's data key under the current master key, leaving its content encrypted as it is (key
   * rotation). `rewrapped` is false when it already was under the current key; null when no document is stored.
   * Run it where no erasure of the same key can happen at the same moment: a rewrap that read the file before an
   * erasure would write it back.
   */
  rewrap(key: string): Promise<{ keyId: string; rewrapped: boolean } | null>;
  /**
   * Encrypts a small record that is kept elsewhere (a database column) instead of in the store, in the same format
   * as a stored document: `key` names what it belongs to (`kyc/<sessionId>/details`) and must be given again to
   * open it, so a record copied to another row does not read. Nothing is written to the store.
   */
  seal(document: DocumentToStore): { sealed: Buffer; keyId: string };
  /** Decrypts what `seal` returned for the same key. Throws DocumentVaultError like `read`. */
  open(key: string, sealed: Uint8Array): ReadDocument;
  /** A sealed record's data key wrapped under the current master key (rotation); null when it already is. */
  rewrapSealed(key: string, sealed: Uint8Array): Buffer | null;
  /**
   * A keyed digest of `value` that reveals nothing without the master key, to find the same value again without
   * keeping it readable (an ID number): HMAC-SHA256 under a key derived (HKDF) from a master key for `purpose`, hex.
   * `current` is under the current master key, the one to store; `all` is one per master key, current first, so a
   * digest stored before a rotation is still found while its key is in the keyring.
   */
  digest(purpose: string, value: string): { current: string; all: string[] };
}

export interface DocumentVaultOptions {
  store: PrivateObjectStore;
  keyring: DocumentKeyring;
}

/** What the object store is told the stored bytes are: ciphertext, whatever the document is. */
const SEALED_CONTENT_TYPE = 'application/octet-stream';

export function createDocumentVault({ store, keyring }: DocumentVaultOptions): DocumentVault {
  return {
    async store({ key, bytes, contentType }) {
      assertSafeObjectKey(key);
      const { sealed, keyId } = seal(keyring, key, contentType, bytes);
      await store.put(key, sealed, SEALED_CONTENT_TYPE);
      return { key, keyId, size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
    },

    async read(key) {
      const sealed = await store.get(key);
      return sealed === null ? null : open(keyring, key, sealed);
    },

    async erase(key) {
      await store.delete(key);
    },

    async eraseAll(prefix) {
      await store.deletePrefix(prefix);
    },

    async rewrap(key) {
      const sealed = await store.get(key);
      if (sealed === null) return null;
      const rewrapped = rewrap(keyring, key, sealed);
      if (rewrapped === null) return { keyId: keyring.current.id, rewrapped: false };
      await store.put(key, rewrapped, SEALED_CONTENT_TYPE);
      return { keyId: keyring.current.id, rewrapped: true };
    },

    seal({ key, bytes, contentType }) {
      assertSafeObjectKey(key);
      return seal(keyring, key, contentType, bytes);
    },

    open(key, sealed) {
      return open(keyring, key, Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength));
    },

    rewrapSealed(key, sealed) {
      return rewrap(keyring, key, Buffer.from(sealed.buffer, sealed.byteOffset, sealed.byteLength));
    },

    digest(purpose, value) {
      const others = [...keyring.keys.values()].filter((master) => master.id !== keyring.current.id);
      const all = [keyring.current, ...others].map((master) => {
        const key = Buffer.from(hkdfSync('sha256', master.key, Buffer.alloc(0), `${DIGEST_INFO}${purpose}`, 32));
        return createHmac('sha256', key).update(value).digest('hex');
      });
      return { current: all[0] ?? '', all };
    },
  };
}

/** HKDF's info for a digest key, followed by its purpose: a key of its own, never a master key used twice. */
const DIGEST_INFO = 'platform:document-vault:digest:v1:';
