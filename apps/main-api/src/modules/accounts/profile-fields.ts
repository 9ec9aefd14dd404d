import type { ValidationDetail } from '@platform/errors';
import { readStorableDateTime } from '@platform/http';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The profile fields a client may change; anything else in a PATCH body is ignored. */
const writableProfileFields = ['firstName', 'lastName', 'phone', 'dob', 'avatarUrl'] as const;

export type WritableProfileField = (typeof writableProfileFields)[number];

/** Normalised values ready to store. */
export type ProfileChanges = Partial<Record<WritableProfileField, string>>;

export const NAME_MAX_LENGTH = 100;
const PHONE_DEFAULT_REGION = 'KE';
export const EARLIEST_DATE_OF_BIRTH = '1900-01-01';

/** The writable fields present in `body` (undefined counts as absent). */
export function pickWritableFields(body: Partial<Record<WritableProfileField, unknown>>): ProfileChanges {
  const picked: ProfileChanges = {};
  for (const field of writableProfileFields) {
    const value = body[field];
    if (typeof value === 'string') picked[field] = value;
  }
  return picked;
}

/**
 * Checks and normalises the field rules the JSON schema cannot express. Returns the values to store, or the
 * list of failed rules (paths as JSON pointers into the body). `today` is `YYYY-MM-DD` in UTC.
 */
export function normaliseProfileChanges(
  changes: ProfileChanges,
  today: string,
): { ok: true; changes: ProfileChanges } | { ok: false; details: ValidationDetail[] } {
  const normalised: ProfileChanges = {};
  const details: ValidationDetail[] = [];
  const check = (field: WritableProfileField, result: string | { problem: string }) => {
    if (typeof result === 'string') normalised[field] = result;
    else details.push({ path: `/${field}`, message: result.problem });
  };

  if (changes.firstName !== undefined) check('firstName', normaliseName(changes.firstName));
  if (changes.lastName !== undefined) check('lastName', normaliseName(changes.lastName));
  if (changes.phone !== undefined) check('phone', normalisePhone(changes.phone));
  if (changes.dob !== undefined) check('dob', normaliseDateOfBirth(changes.dob, today));
  // Ownership of the URL needs the database; here it only has to be a URL at all.
  if (changes.avatarUrl !== undefined) check('avatarUrl', normaliseUrl(changes.avatarUrl));

  return details.length === 0 ? { ok: true, changes: normalised } : { ok: false, details };
}

export function normaliseName(value: string): string | { problem: string } {
  const name = value.trim();
  const length = [...name].length;
  if (length < 1 || length > NAME_MAX_LENGTH) {
    return { problem: `must be 1-${NAME_MAX_LENGTH} characters after trimming spaces` };
  }
  if (/\p{Cc}/u.test(name)) return { problem: 'must not contain control characters' };
  return name;
}

/** Any common way of writing a number; a number without a country code is read as Kenyan. Stored as E.164. */
export function normalisePhone(value: string): string | { problem: string } {
  const parsed = value.length <= 40 ? parsePhoneNumberFromString(value, PHONE_DEFAULT_REGION) : undefined;
  if (parsed === undefined || !parsed.isValid()) {
    return { problem: 'must be a valid phone number, e.g. +254712345678 or 0712345678' };
  }
  return parsed.number;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T.+)?$/;

/**
 * An ISO 8601 calendar date (`1990-05-15`), or an ISO 8601 date-time whose date part is taken as written
 * (`1990-05-15T00:00:00.000Z`, as date pickers send). Other formats are refused because they are ambiguous:
 * `03/04/1990` is 3 April in Kenya and March 4 to JavaScript's parser.
 */
export function normaliseDateOfBirth(value: string, today: string): string | { problem: string } {
  const match = ISO_DATE.exec(value);
  if (match === null) return { problem: 'must be a date in YYYY-MM-DD format' };
  const [, year, month, day, time] = match;
  const date = `${year}-${month}-${day}`;
  // Same-length ISO dates compare correctly as strings.
  if (date < EARLIEST_DATE_OF_BIRTH) return { problem: `must not be before ${EARLIEST_DATE_OF_BIRTH}` };
  if (!isCalendarDate(Number(year), Number(month), Number(day))) return { problem: `${date} is not a calendar date` };
  // The time must be a real one (no hour 24, no leap second), as every date-time a request names is.
  if (time !== undefined && readStorableDateTime(value) === undefined) {
    return { problem: 'must be a date in YYYY-MM-DD format' };
  }
  if (date > today) return { problem: 'must not be in the future' };
  return date;
}

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function normaliseUrl(value: string): string | { problem: string } {
  return URL.canParse(value) ? value : { problem: 'must be a URL returned by POST /v1/auth/avatar' };
}
