/**
 * The HS256 secret as a WebCrypto key, imported once. Given the raw bytes instead, jose imports them again on
 * every verification, which took about half of a token check's time
 * (docs/benchmarks.md#token-verification-get-v1accountsme).
 */
export function importHmacVerificationKey(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
}
