import { randomInt, randomUUID } from 'node:crypto';

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

/** Crockford's base 32: digits and capitals without I, L, O and U, which are read as 1, 1, 0 or nothing. */
const TRANSFER_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const TRANSFER_REFERENCE = /^BT[0-9A-HJKMNP-TV-Z]{8}$/;

/**
 * A new bank transfer reference: `BT` and 8 random characters of Crockford's base 32 (40 bits), 10 characters that
 * fit any bank's narration field, that no one misreads, and that a payer copies without a hyphen to lose. Unique among
 * bank transfers by a database index; the rare clash is drawn again (docs/decisions.md#bank-transfers).
 */
export function newTransferReference(): string {
  let code = 'BT';
  for (let index = 0; index < 8; index += 1) code += TRANSFER_ALPHABET[randomInt(TRANSFER_ALPHABET.length)];
  return code;
}

/**
 * A transfer reference as finance may copy it from a bank statement: any case, with spaces or hyphens, O for 0 and I
 * or L for 1 (Crockford's reading); undefined when it cannot be one.
 */
export function readTransferReference(value: string): string | undefined {
  // "BT" has none of the letters read as digits, so the whole text can be read the same way.
  const reference = value.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return TRANSFER_REFERENCE.test(reference) ? reference : undefined;
}
