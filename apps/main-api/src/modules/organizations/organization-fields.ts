import type { ValidationDetail } from '@platform/errors';

// The rules of an organization's fields the JSON schema cannot express (docs/decisions.md#organization-creation).

export const ORGANIZATION_NAME_MAX_LENGTH = 100;

/** A KRA PIN as a client may write it: a letter, nine digits and a letter, in either case. */
export const KRA_PIN_INPUT_PATTERN = '^[A-Za-z][0-9]{9}[A-Za-z]$';

/** 1-100 characters after trimming, no control characters; counted in characters, not UTF-16 units. */
function normaliseOrganizationName(value: string): string | { problem: string } {
  const name = value.trim();
  const length = [...name].length;
  if (length < 1 || length > ORGANIZATION_NAME_MAX_LENGTH) {
    return { problem: `must be 1-${ORGANIZATION_NAME_MAX_LENGTH} characters after trimming spaces` };
  }
  if (/\p{Cc}/u.test(name)) return { problem: 'must not contain control characters' };
  return name;
}

/** Stored upper case, as the database's check requires; the schema has checked the shape. */
function normaliseKraPin(value: string): string {
  return value.toUpperCase();
}

/** The checked fields of a creation or an update, or the list of failed rules (paths as JSON pointers). */
export function normaliseOrganizationFields(fields: {
  name?: string;
  kraPin?: string | null;
}): { ok: true; fields: { name?: string; kraPin?: string | null } } | { ok: false; details: ValidationDetail[] } {
  const checked: { name?: string; kraPin?: string | null } = {};
  if (fields.name !== undefined) {
    const name = normaliseOrganizationName(fields.name);
    if (typeof name !== 'string') return { ok: false, details: [{ path: '/name', message: name.problem }] };
    checked.name = name;
  }
  if (fields.kraPin !== undefined) checked.kraPin = fields.kraPin === null ? null : normaliseKraPin(fields.kraPin);
  return { ok: true, fields: checked };
}
