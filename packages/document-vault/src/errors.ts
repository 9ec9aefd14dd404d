/**
 * Why a stored document could not be read:
 * - `malformed`: not a vault file of a version this code reads (wrong magic or version, truncated header);
 * - `unknown_key_id`: wrapped under a master key id the keyring does not hold (a key dropped too early, or another
 *   environment's file);
 * - `authentication_failed`: AES-GCM refused it: a byte of the header or content changed, the file was moved to
 *   another key, or the master key under that id is not the one that wrapped it.
 */
export type DocumentVaultErrorCode = 'malformed' | 'unknown_key_id' | 'authentication_failed';

/** Thrown when a stored document cannot be decrypted. The message names the object key, never key material. */
export class DocumentVaultError extends Error {
  readonly code: DocumentVaultErrorCode;

  constructor(code: DocumentVaultErrorCode, message: string) {
    super(message);
    this.name = 'DocumentVaultError';
    this.code = code;
  }
}

/** Thrown by parseDocumentKeyring; the message names the variable and the entry, never a key. */
export class DocumentKeyringError extends Error {
  /** The environment variable the keyring came from, for a config error that names it. */
  readonly variable: string;

  constructor(variable: string, message: string) {
    super(`${variable} ${message}`);
    this.name = 'DocumentKeyringError';
    this.variable = variable;
  }
}
