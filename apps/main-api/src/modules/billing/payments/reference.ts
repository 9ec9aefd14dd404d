import { randomUUID } from 'node:crypto';

const REFERENCE = /^PAY-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A new payment reference: `PAY-` and a UUID v4. */
export function newPaymentReference(): string {
  return `PAY-${randomUUID()}`;
}

export function isPaymentReference(value: string): boolean {
  return REFERENCE.test(value);
}

/**
 * The AccountReference shown in the M-Pesa prompt (at most 12 characters): `PAY` and the first 8 hex digits
 * of the reference's UUID. It need not be unique: the result is matched through the CheckoutRequestID.
 */
export function accountReferenceOf(reference: string): string {
  return `PAY${reference.slice(4, 12).toUpperCase()}`;
}
