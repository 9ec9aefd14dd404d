import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { DocumentVaultError } from './errors.js';
import type { DocumentKeyring, MasterKey } from './keyring.js';

/*
 * A sealed document (format version 1), all in one object:
 *
 *   offset  bytes  field
 *   0       4      magic 89 50 44 56 ("\x89PDV")
 *   4       1      format version: 1
 *   5       1      key id length n (1-64)
 *   6       n      key id of the master key (ASCII)
 *   6+n     12     wrap IV
 *   18+n    32     wrapped data key  (AES-256-GCM of the data key under the master key)
 *   50+n    16     wrap tag
 *   66+n    12     content IV
 *   78+n    16     content tag
 *   94+n    ...    ciphertext        (AES-256-GCM under the data key of: content type length (1 byte),
 *                                     content type (ASCII), document bytes)
 *
 * The wrap authenticates bytes 0 to 6+n (magic, version, key id) as additional data, so a key id cannot be
 * swapped; the content authenticates magic, version and the object key, so a file copied under another key (another
 * person's session) fails. Rewrapping replaces bytes 5 to 66+n and leaves the content part untouched.
 */

const MAGIC = Buffer.from([0x89, 0x50, 0x44, 0x56]);
const VERSION = 1;
const ALGORITHM = 'aes-256-gcm';
const DATA_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const MAX_CONTENT_TYPE_LENGTH = 255;
const CONTENT_TYPE = /^[\x20-\x7e]+$/;

/** The parts of a sealed document. */
interface SealedParts {
  keyId: string;
  wrapIv: Buffer;
  wrappedKey: Buffer;
  wrapTag: Buffer;
  /** Content IV, content tag and ciphertext: what rewrapping keeps byte for byte. */
  content: Buffer;
}

function headerPrefix(keyId: string): Buffer {
  const id = Buffer.from(keyId, 'ascii');
  return Buffer.concat([MAGIC, Buffer.from([VERSION, id.length]), id]);
}

function contentAad(objectKey: string): Buffer {
  return Buffer.concat([MAGIC, Buffer.from([VERSION]), Buffer.from(objectKey, 'utf8')]);
}

function wrap(master: MasterKey, dataKey: Buffer): Buffer {
  const prefix = headerPrefix(master.id);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, master.key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(prefix);
  const wrapped = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([prefix, iv, wrapped, cipher.getAuthTag()]);
}

function parse(sealed: Buffer, objectKey: string): SealedParts {
  const malformed = (why: string) => new DocumentVaultError('malformed', `Document ${objectKey} ${why}`);
  if (sealed.length < MAGIC.length + 2 || !sealed.subarray(0, MAGIC.length).equals(MAGIC)) {
    throw malformed('is not a document vault file');
  }
  if (sealed[4] !== VERSION) throw malformed(`has format version ${sealed[4]}, not ${VERSION}`);
  const idLength = sealed[5] ?? 0;
  const fixed = 6 + idLength + IV_BYTES + DATA_KEY_BYTES + TAG_BYTES + IV_BYTES + TAG_BYTES;
  if (idLength === 0 || sealed.length < fixed + 1) throw malformed('is truncated');
  let offset = 6;
  const take = (length: number) => {
    const part = sealed.subarray(offset, offset + length);
    offset += length;
    return part;
  };
  const keyId = take(idLength).toString('latin1');
  return {
    keyId,
    wrapIv: take(IV_BYTES),
    wrappedKey: take(DATA_KEY_BYTES),
    wrapTag: take(TAG_BYTES),
    content: sealed.subarray(offset),
  };
}

function unwrap(parts: SealedParts, keyring: DocumentKeyring, objectKey: string): Buffer {
  const master = keyring.keys.get(parts.keyId);
  if (master === undefined) {
    // The key id is printed only when it is one a keyring could hold; a damaged byte may make it anything.
    const shown = /^[A-Za-z0-9_.-]+$/.test(parts.keyId) ? `"${parts.keyId}"` : 'that is not a valid key id';
    throw new DocumentVaultError('unknown_key_id', `Document ${objectKey} is wrapped under key ${shown}, not held`);
  }
  const decipher = createDecipheriv(ALGORITHM, master.key, parts.wrapIv, { authTagLength: TAG_BYTES });
  decipher.setAAD(headerPrefix(parts.keyId));
  decipher.setAuthTag(parts.wrapTag);
  try {
    return Buffer.concat([decipher.update(parts.wrappedKey), decipher.final()]);
  } catch {
    throw new DocumentVaultError(
      'authentication_failed',
      `Document ${objectKey}: its data key failed authentication under key "${parts.keyId}"`,
    );
  }
}

function assertValidContentType(contentType: string): void {
  if (contentType.length > MAX_CONTENT_TYPE_LENGTH || !CONTENT_TYPE.test(contentType)) {
    throw new Error('A content type is 1-255 printable ASCII characters');
  }
}

/** Encrypts a document under a new random data key, wrapped by the keyring's current master key. */
export function seal(
  keyring: DocumentKeyring,
  objectKey: string,
  contentType: string,
  bytes: Uint8Array,
): { sealed: Buffer; keyId: string } {
  assertValidContentType(contentType);
  const dataKey = randomBytes(DATA_KEY_BYTES);
  try {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, dataKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(contentAad(objectKey));
    const type = Buffer.from(contentType, 'ascii');
    const ciphertext = Buffer.concat([
      cipher.update(Buffer.from([type.length])),
      cipher.update(type),
      cipher.update(bytes),
      cipher.final(),
    ]);
    const sealed = Buffer.concat([wrap(keyring.current, dataKey), iv, cipher.getAuthTag(), ciphertext]);
    return { sealed, keyId: keyring.current.id };
  } finally {
    dataKey.fill(0);
  }
}

/** Decrypts a sealed document; throws DocumentVaultError when it cannot be read or was changed. */
export function open(
  keyring: DocumentKeyring,
  objectKey: string,
  sealed: Buffer,
): { bytes: Buffer; contentType: string; keyId: string } {
  const parts = parse(sealed, objectKey);
  const dataKey = unwrap(parts, keyring, objectKey);
  let plaintext: Buffer;
  try {
    const iv = parts.content.subarray(0, IV_BYTES);
    const tag = parts.content.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
    const decipher = createDecipheriv(ALGORITHM, dataKey, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(contentAad(objectKey));
    decipher.setAuthTag(tag);
    plaintext = Buffer.concat([decipher.update(parts.content.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    throw new DocumentVaultError('authentication_failed', `Document ${objectKey}: its content failed authentication`);
  } finally {
    dataKey.fill(0);
  }
  const typeLength = plaintext[0] ?? 0;
  if (typeLength === 0 || plaintext.length < 1 + typeLength) {
    throw new DocumentVaultError('malformed', `Document ${objectKey} has no content type`);
  }
  return {
    contentType: plaintext.subarray(1, 1 + typeLength).toString('ascii'),
    bytes: plaintext.subarray(1 + typeLength),
    keyId: parts.keyId,
  };
}

/**
 * The same document with its data key wrapped under the keyring's current master key, its content part kept byte
 * for byte; null when it already is. Throws DocumentVaultError when the data key cannot be unwrapped.
 */
export function rewrap(keyring: DocumentKeyring, objectKey: string, sealed: Buffer): Buffer | null {
  const parts = parse(sealed, objectKey);
  if (parts.keyId === keyring.current.id) return null;
  const dataKey = unwrap(parts, keyring, objectKey);
  try {
    return Buffer.concat([wrap(keyring.current, dataKey), parts.content]);
  } finally {
    dataKey.fill(0);
  }
}
