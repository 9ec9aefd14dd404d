import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `x-paystack-signature` of a body: hex HMAC-SHA512 of the raw bytes with the secret key. */
export function paystackSignature(rawBody: Buffer, secretKey: string): string {
  return createHmac('sha512', secretKey).update(rawBody).digest('hex');
}

/** Whether the header carries the body's signature, compared in constant time. */
export function isValidPaystackSignature(rawBody: Buffer, header: unknown, secretKey: string): boolean {
  if (typeof header !== 'string' || !/^[0-9a-f]{128}$/i.test(header)) return false;
  const expected = Buffer.from(paystackSignature(rawBody, secretKey), 'hex');
  return timingSafeEqual(expected, Buffer.from(header, 'hex'));
}
