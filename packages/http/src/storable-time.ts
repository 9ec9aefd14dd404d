// Dates and times a request may carry are the ones PostgreSQL can be asked about (docs/decisions.md#dates-are-storable).
// PostgreSQL's timestamptz spans 4713 BC to 294276 AD, but a time reaches it as JavaScript's ISO text, whose years
// below 1 (`0000-12-31T21:00:00.000Z`, `-000001-...`) and above 9999 (`+010000-...`) PostgreSQL refuses: "date/time
// field value out of range", a 500. So the moment, once in UTC, is from 0001-01-01T00:00:00Z to
// 9999-12-31T23:59:59.999Z, and a date from 0001-01-01 to 9999-12-31.

/** The first moment a request may name. */
export const EARLIEST_STORABLE_TIME = new Date('0001-01-01T00:00:00.000Z');
/** The last moment a request may name. */
export const LATEST_STORABLE_TIME = new Date('9999-12-31T23:59:59.999Z');

const DATE = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/;
// RFC 3339's date-time, seconds optional as ISO 8601 allows: the time zone is required; `t` and `z` may be lower case;
// any number of fraction digits.
const DATE_TIME =
  /^([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]+))?)?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))$/;

/** Whether `at` is a moment a request may name: a real time from EARLIEST_STORABLE_TIME to LATEST_STORABLE_TIME. */
export function isStorableTime(at: Date): boolean {
  const time = at.getTime();
  return time >= EARLIEST_STORABLE_TIME.getTime() && time <= LATEST_STORABLE_TIME.getTime();
}

/** Midnight UTC of a calendar day; `Date.UTC` would read years 0-99 as 1900-1999. */
function utcMidnight(year: number, month: number, day: number): Date {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  return at;
}

function isRealDay(year: number, month: number, day: number): boolean {
  const at = utcMidnight(year, month, day);
  return at.getUTCFullYear() === year && at.getUTCMonth() === month - 1 && at.getUTCDate() === day;
}

/** The midnight UTC that a `YYYY-MM-DD` date of a real day from 0001-01-01 to 9999-12-31 starts, else undefined. */
export function readStorableDate(text: string): Date | undefined {
  const match = DATE.exec(text);
  if (match === null) return undefined;
  const [year, month, day] = match.slice(1, 4).map(Number) as [number, number, number];
  if (year < 1 || !isRealDay(year, month, day)) return undefined;
  return utcMidnight(year, month, day);
}

/**
 * The moment an RFC 3339 date-time with a time zone names (`2026-03-01T09:00:00Z`, `2026-03-01T12:00:00.5+03:00`,
 * `2026-03-01T09:00Z`),
 * when it is a real day and time (no leap second: PostgreSQL and JavaScript have none) and, in UTC, from
 * 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z; else undefined. Read here rather than by `new Date(text)`,
 * which accepts other forms and mistakes years below 100.
 */
export function readStorableDateTime(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', utc, sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const [year, month, day, hours, minutes, seconds] = [y, mo, d, h, mi, s].map(Number) as number[] as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!isRealDay(year, month, day) || hours > 23 || minutes > 59 || seconds > 59) return undefined;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const offset = utc === undefined ? (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes)) : 0;
  const milliseconds = Math.floor(Number(`0.${fraction || '0'}`) * 1000);
  const at = utcMidnight(year, month, day);
  at.setUTCHours(hours, minutes - offset, seconds, milliseconds);
  return isStorableTime(at) ? at : undefined;
}
