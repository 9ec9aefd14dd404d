import type { IncomingHttpHeaders } from 'node:http';
import { invalidFields } from '@platform/errors';

/**
 * The names a key may arrive under, on every idempotent route of both services: ours and the IETF draft's
 * (docs/decisions.md#idempotency-key-header). Both with one value is one key; with two values, a 400.
 */
export const KEY_HEADERS = ['x-idempotency-key', 'idempotency-key'] as const;
export const MAX_KEY_LENGTH = 255;

// Visible ASCII only (0x21-0x7E): no spaces, no control characters, nothing a proxy might re-encode.
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/** JSON Schema of the key header, for route documentation; the plugin applies the same rule itself. */
export const keyHeaderSchema = {
  type: 'string',
  minLength: 1,
  maxLength: MAX_KEY_LENGTH,
  pattern: '^[!-~]+$',
  'x-allowed': `1-${MAX_KEY_LENGTH} visible ASCII characters, without spaces`,
  description:
    'Optional. 1-255 visible ASCII characters, unique per operation (a UUID v4 is usual). A retry with the ' +
    'same key within 24 hours returns the first successful answer with `Idempotent-Replayed: true` and does ' +
    'not run the operation again.',
} as const;

/**
 * The idempotency key of a request, from either of KEY_HEADERS, or undefined when neither is sent. A key that is empty, longer than 255 characters or
 * not visible ASCII, a header sent twice, or two accepted headers with different values give 400.
 */
export function readIdempotencyKey(headers: IncomingHttpHeaders): string | undefined {
  let found: { name: string; value: string } | undefined;
  for (const name of KEY_HEADERS) {
    const raw = headers[name];
    if (raw === undefined) continue;
    if (Array.isArray(raw)) throw invalidKey(name, 'must be sent once');
    if (raw.length === 0 || raw.length > MAX_KEY_LENGTH) {
      throw invalidKey(name, `must be 1-${MAX_KEY_LENGTH} characters long`);
    }
    if (!VISIBLE_ASCII.test(raw)) throw invalidKey(name, 'must contain visible ASCII characters only (no spaces)');
    if (found !== undefined && found.value !== raw) {
      throw invalidKey(name, `differs from ${found.name}; send one idempotency key`);
    }
    found ??= { name, value: raw };
  }
  return found?.value;
}

function invalidKey(header: string, problem: string) {
  return invalidFields([{ path: `headers/${header}`, message: problem }]);
}
