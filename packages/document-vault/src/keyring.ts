import { createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { DocumentKeyringError } from './errors.js';

/** A master key and the id stored beside every data key it wraps. */
export interface MasterKey {
  readonly id: string;
  /** 32 bytes for AES-256, as a KeyObject: it prints and serializes without its material. */
  readonly key: KeyObject;
}

/** The master keys a vault knows: `current` wraps new files, every key in `keys` (current included) reads. */
export interface DocumentKeyring {
  readonly current: MasterKey;
  readonly keys: ReadonlyMap<string, MasterKey>;
}

const DOCUMENT_KEY_VARIABLE = 'DOCUMENT_ENCRYPTION_KEY';
const MASTER_KEY_BYTES = 32;
const KEY_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
const FORMAT = '<keyId>:<base64 of 32 random bytes>';

/** True for a key id the format can store: 1-64 letters, digits, `_`, `-` or `.`. */
function isValidKeyId(keyId: string): boolean {
  return KEY_ID.test(keyId);
}

/**
 * Parses `DOCUMENT_ENCRYPTION_KEY`: `<keyId>:<base64 of 32 bytes>`, then optionally more comma-separated entries
 * of the same shape. The first entry is the current key (it wraps new files); the others only read older files
 * until they are rewrapped (key rotation). Throws DocumentKeyringError naming `variable` and the entry at fault,
 * never printing a key.
 */
export function parseDocumentKeyring(value: string, variable = DOCUMENT_KEY_VARIABLE): DocumentKeyring {
  if (value.trim() === '') throw new DocumentKeyringError(variable, `is empty; expected ${FORMAT}`);
  const keys = new Map<string, MasterKey>();
  const entries = value.split(',');
  for (const [index, rawEntry] of entries.entries()) {
    const entry = rawEntry.trim();
    const where = entries.length === 1 ? '' : ` (entry ${index + 1})`;
    const separator = entry.indexOf(':');
    if (separator < 0) {
      throw new DocumentKeyringError(variable, `is not ${FORMAT}${entries.length === 1 ? '' : ', ...'}${where}`);
    }
    const keyId = entry.slice(0, separator).trim();
    const encoded = entry.slice(separator + 1).trim();
    // An invalid key id is not printed: it may be a key pasted in the wrong place.
    if (!isValidKeyId(keyId)) {
      throw new DocumentKeyringError(
        variable,
        `has an invalid key id${where}: 1-64 letters, digits, "_", "-" or "." before the ":"`,
      );
    }
    if (!BASE64.test(encoded)) {
      throw new DocumentKeyringError(variable, `key "${keyId}" is not base64${where}`);
    }
    const material = Buffer.from(encoded, 'base64');
    if (material.length !== MASTER_KEY_BYTES) {
      throw new DocumentKeyringError(
        variable,
        `key "${keyId}" is ${material.length} bytes, not ${MASTER_KEY_BYTES}${where}`,
      );
    }
    if (keys.has(keyId)) throw new DocumentKeyringError(variable, `names key "${keyId}" twice`);
    keys.set(keyId, { id: keyId, key: createSecretKey(material) });
    material.fill(0);
  }
  const [current] = keys.values();
  // Unreachable: a non-empty value has at least one entry, and every entry was added or threw.
  if (current === undefined) throw new DocumentKeyringError(variable, `is empty; expected ${FORMAT}`);
  return { current, keys };
}

/** A new random entry for DOCUMENT_ENCRYPTION_KEY: `<keyId>:<base64 of 32 random bytes>`. */
export function generateDocumentKeyEntry(keyId: string): string {
  if (!isValidKeyId(keyId)) throw new Error('A key id is 1-64 letters, digits, "_", "-" or "."');
  return `${keyId}:${randomBytes(MASTER_KEY_BYTES).toString('base64')}`;
}
