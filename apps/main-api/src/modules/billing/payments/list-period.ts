import { validationError } from '@platform/errors';

// The `from` and `to` of the payment list (docs/decisions.md#billing-documents): a date is a whole day in Nairobi
// (UTC+3, as receipts date payments), a date-time with a time zone an exact moment. `from` is inclusive; `to` is
// exclusive as a moment and inclusive as a day, so `from=2026-03-01&to=2026-03-31` is the whole of March.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;
/** Nairobi's offset: East Africa Time has no daylight saving. */
const NAIROBI = '+03:00';
const DAY_MS = 24 * 60 * 60 * 1000;

const FORM = 'must be a date (2026-03-01) or a date-time with a time zone (2026-03-01T09:00:00Z)';

export interface PaymentPeriod {
  /** At or after. */
  from: Date | undefined;
  /** Before. */
  to: Date | undefined;
}

/** The moments `from` and `to` name; 400 naming the parameter for one that is neither form, or `from` not before `to`. */
export function readPaymentPeriod(text: { from: string | undefined; to: string | undefined }): PaymentPeriod {
  const problems: Array<{ path: string; message: string }> = [];
  const read = (name: 'from' | 'to', value: string | undefined): Date | undefined => {
    if (value === undefined) return undefined;
    const start = startOf(value);
    if (start === undefined) {
      problems.push({ path: `querystring/${name}`, message: FORM });
      return undefined;
    }
    // A day named as `to` is included: the period ends when the next day starts.
    return name === 'to' && DATE.test(value) ? new Date(start.getTime() + DAY_MS) : start;
  };
  const from = read('from', text.from);
  const to = read('to', text.to);
  // An empty period is a mistake: a `to` day before the `from` day, or the same moment twice.
  if (from !== undefined && to !== undefined && from.getTime() >= to.getTime()) {
    problems.push({ path: 'querystring/from', message: 'must be before to' });
  }
  const [first] = problems;
  if (first !== undefined) throw validationError(`${first.path} ${first.message}`, problems);
  return { from, to };
}

/** When the day or moment written starts; undefined when it is neither form or names no real day or time. */
function startOf(value: string): Date | undefined {
  const date = DATE.exec(value);
  if (date !== null) return isRealDay(value) ? new Date(`${value}T00:00:00${NAIROBI}`) : undefined;
  const dateTime = DATE_TIME.exec(value);
  if (dateTime === null) return undefined;
  const [, day = '', hours, minutes, seconds = '0', offsetHours = '0', offsetMinutes = '0'] = dateTime;
  if (!isRealDay(day) || Number(hours) > 23 || Number(minutes) > 59 || Number(seconds) > 59) return undefined;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/** `2026-02-30` is no day: the calendar must give back the same day. */
function isRealDay(day: string): boolean {
  const at = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === day;
}
