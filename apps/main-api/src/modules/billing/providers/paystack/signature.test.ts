import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isValidPaystackSignature } from './signature.js';

const SECRET = 'sk_test_signature';
const body = Buffer.from('{"event":"charge.success","data":{"reference":"PAY-x"}}');
const sign = (raw: Buffer, secret = SECRET) => createHmac('sha512', secret).update(raw).digest('hex');

describe('isValidPaystackSignature', () => {
  it('accepts the HMAC-SHA512 of the exact bytes, in either case of hex', () => {
    expect(isValidPaystackSignature(body, sign(body), SECRET)).toBe(true);
    expect(isValidPaystackSignature(body, sign(body).toUpperCase(), SECRET)).toBe(true);
  });

  it('refuses another secret, other bytes, a truncated or missing signature', () => {
    expect(isValidPaystackSignature(body, sign(body, 'sk_test_other'), SECRET)).toBe(false);
    const reformatted = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 1));
    expect(isValidPaystackSignature(reformatted, sign(body), SECRET)).toBe(false);
    expect(isValidPaystackSignature(body, sign(body).slice(0, 64), SECRET)).toBe(false);
    expect(isValidPaystackSignature(body, undefined, SECRET)).toBe(false);
    expect(isValidPaystackSignature(body, [sign(body)], SECRET)).toBe(false);
  });
});
