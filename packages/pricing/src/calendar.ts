import { describeValue, isDateObject, PricingError } from './errors.js';

/** A calendar day: a `'YYYY-MM-DD'` string, or a `Date`, read as its UTC calendar day. */
export type DateInput = string | Date;

/** A validated calendar day; `month` is 1-12. */
export interface CalendarDay {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

const MIN_YEAR = 1;
export const MAX_YEAR = 9999;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Parses and checks a date input; rejects impossible days such as 2023-02-29. */
export function toCalendarDay(value: unknown, field: string): CalendarDay {
  const day = readCalendarDay(value);
  if (day && day.year >= MIN_YEAR && day.year <= MAX_YEAR && day.day <= daysInMonth(day.year, day.month)) return day;
  throw new PricingError(
    'invalid_date',
    field,
    `${field} must be a real calendar date as YYYY-MM-DD or a Date (got ${describeValue(value)})`,
  );
}

function readCalendarDay(value: unknown): CalendarDay | undefined {
  if (typeof value === 'string') {
    const match = ISO_DAY.exec(value);
    if (!match) return undefined;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    if (month < 1 || month > 12 || day < 1) return undefined;
    return { year, month, day };
  }
  if (isDateObject(value) && !Number.isNaN(value.getTime())) {
    return { year: value.getUTCFullYear(), month: value.getUTCMonth() + 1, day: value.getUTCDate() };
  }
  return undefined;
}

export function formatCalendarDay({ year, month, day }: CalendarDay): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Days since 1970-01-01 (negative before it), so whole-day differences are a subtraction.
 * Howard Hinnant's days_from_civil, restricted to years >= 1 so every division is of non-negative integers.
 */
export function dayNumber({ year, month, day }: CalendarDay): number {
  const marchBasedYear = month <= 2 ? year - 1 : year;
  const era = quotient(marchBasedYear, 400);
  const yearOfEra = marchBasedYear - era * 400;
  const dayOfYear = quotient(153 * (month > 2 ? month - 3 : month + 9) + 2, 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + quotient(yearOfEra, 4) - quotient(yearOfEra, 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** Whole-number division of non-negative integers, without going through a fraction. */
function quotient(dividend: number, divisor: number): number {
  return (dividend - (dividend % divisor)) / divisor;
}
