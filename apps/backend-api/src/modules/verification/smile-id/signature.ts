import { createHmac, timingSafeEqual } from 'node:crypto';

// Smile ID's request signature (docs/decisions.md#automated-decisions): base64 of HMAC-SHA256 under the API key
// over the ISO 8601 timestamp, the partner id and "sid_request". The same scheme signs our requests and Smile ID's
// callbacks and job-status answers. The official Node SDK computes the same bytes (signature.test.ts checks it).

export interface SmileIdCredentials {
  partnerId: string;
  apiKey: string;
}

/** The signature of `timestamp` (ISO 8601). */
export function smileIdSignature({ partnerId, apiKey }: SmileIdCredentials, timestamp: string): string {
  return createHmac('sha256', apiKey)
    .update(timestamp, 'utf8')
    .update(partnerId, 'utf8')
    .update('sid_request', 'utf8')
    .digest('base64');
}

/** `{signature, timestamp}` for a request sent now. */
export function signedNow(credentials: SmileIdCredentials, now: Date): { signature: string; timestamp: string } {
  const timestamp = now.toISOString();
  return { signature: smileIdSignature(credentials, timestamp), timestamp };
}

/** Whether `signature` is Smile ID's for `timestamp`, compared in constant time; anything not a string is not. */
export function isSmileIdSignature(credentials: SmileIdCredentials, timestamp: unknown, signature: unknown): boolean {
  if (typeof timestamp !== 'string' || typeof signature !== 'string' || timestamp === '' || signature === '') {
    return false;
  }
  const expected = Buffer.from(smileIdSignature(credentials, timestamp), 'base64');
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
