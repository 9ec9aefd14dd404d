import { BILLING_EMAIL_MAX_LENGTH, ORGANIZATION_ADDRESS_MAX_LENGTH } from '@platform/db';
import type { ValidationDetail } from '@platform/errors';

// The rules of an organization's fields the JSON schema cannot express (docs/decisions.md#organization-creation,
// docs/decisions.md#organization-address-and-billing-email).

export const ORGANIZATION_NAME_MAX_LENGTH = 100;
export { BILLING_EMAIL_MAX_LENGTH, ORGANIZATION_ADDRESS_MAX_LENGTH };
/** An address is printed on invoices as lines: a building, a street, a box, a town. */
export const ORGANIZATION_ADDRESS_MAX_LINES = 4;

/** A KRA PIN as a client may write it: a letter, nine digits and a letter, in either case. */
export const KRA_PIN_INPUT_PATTERN = '^[A-Za-z][0-9]{9}[A-Za-z]$';

/** The fields a creation or an update may set; null clears an optional one. */
export interface OrganizationFields {
  name?: string;
  kraPin?: string | null;
  address?: string | null;
  billingEmail?: string | null;
}

type Checked<T> = T | { problem: string };

/** 1-100 characters after trimming, no control characters; counted in characters, not UTF-16 units. */
function normaliseOrganizationName(value: string): Checked<string> {
  const name = value.trim();
  const length = [...name].length;
  if (length < 1 || length > ORGANIZATION_NAME_MAX_LENGTH) {
    return { problem: `must be 1-${ORGANIZATION_NAME_MAX_LENGTH} characters after trimming spaces` };
  }
  if (/\p{Cc}/u.test(name)) return { problem: 'must not contain control characters' };
  return name;
}

const KRA_PIN_INPUT = new RegExp(KRA_PIN_INPUT_PATTERN);

/** Stored upper case, as the database's check requires; the shape checked here too for callers without the schema. */
function normaliseKraPin(value: string): Checked<string> {
  if (!KRA_PIN_INPUT.test(value))
    return { problem: 'must be a KRA PIN: a letter, nine digits and a letter (P051234567Q)' };
  return value.toUpperCase();
}

/**
 * Up to 4 lines (any line break, stored as `\n`), each trimmed, empty lines dropped; 1-200 characters in all, no
 * other control characters.
 */
function normaliseAddress(value: string): Checked<string> {
  const lines = value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length > ORGANIZATION_ADDRESS_MAX_LINES) {
    return { problem: `must be at most ${ORGANIZATION_ADDRESS_MAX_LINES} lines` };
  }
  const address = lines.join('\n');
  const length = [...address].length;
  if (length < 1 || length > ORGANIZATION_ADDRESS_MAX_LENGTH) {
    return { problem: `must be 1-${ORGANIZATION_ADDRESS_MAX_LENGTH} characters after trimming spaces` };
  }
  if (/[^\P{Cc}\n]/u.test(address)) return { problem: 'must not contain control characters other than line breaks' };
  return address;
}

// One @ with something on either side, a dot in the domain, no spaces or control characters: mail goes to it, so
// it must be an address, without judging what providers accept beyond that.
const EMAIL_SHAPE = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u;

/** Trimmed; the shape of an address and at most 254 characters. Kept as written (a mailbox's case may matter). */
function normaliseBillingEmail(value: string): Checked<string> {
  const email = value.trim();
  if ([...email].length > BILLING_EMAIL_MAX_LENGTH) {
    return { problem: `must be at most ${BILLING_EMAIL_MAX_LENGTH} characters` };
  }
  if (!EMAIL_SHAPE.test(email)) return { problem: 'must be an email address (name@example.co.ke)' };
  return email;
}

function optional(
  value: string | null | undefined,
  normalise: (value: string) => Checked<string>,
): Checked<string | null> | undefined {
  if (value === undefined || value === null) return value;
  return normalise(value);
}

/** The checked fields of a creation or an update, or the list of failed rules (paths as JSON pointers). */
export function normaliseOrganizationFields(
  fields: OrganizationFields,
): { ok: true; fields: OrganizationFields } | { ok: false; details: ValidationDetail[] } {
  const checked: OrganizationFields = {};
  const details: ValidationDetail[] = [];
  const take = <K extends keyof OrganizationFields>(key: K, value: Checked<OrganizationFields[K]> | undefined) => {
    if (value === undefined) return;
    if (value !== null && typeof value === 'object') details.push({ path: `/${key}`, message: value.problem });
    else checked[key] = value as OrganizationFields[K];
  };
  if (fields.name !== undefined) take('name', normaliseOrganizationName(fields.name));
  if (fields.kraPin !== undefined) take('kraPin', fields.kraPin === null ? null : normaliseKraPin(fields.kraPin));
  take('address', optional(fields.address, normaliseAddress));
  take('billingEmail', optional(fields.billingEmail, normaliseBillingEmail));
  return details.length > 0 ? { ok: false, details } : { ok: true, fields: checked };
}
