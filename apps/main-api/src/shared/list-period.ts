import { invalidFields } from '@platform/errors';
import { isStorableTime, readStorableDate, readStorableDateTime } from '@platform/http';

// The `from` and `to` of the lists filtered by when a row was created, the payments and the verification sessions
// (docs/decisions.md#payment-list-period): a date is a whole day in Nairobi
// (UTC+3, as receipts date payments), a date-time with a time zone an exact moment. `from` is inclusive; `to` is
// exclusive as a moment and inclusive as a day, so `from=2026-03-01&to=2026-03-31` is the whole of March. Both are
// read by the shared readers, which hold every date a request names to what PostgreSQL can be asked about
// (docs/decisions.md#dates-are-storable).

const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
/** Nairobi's offset: East Africa Time has no daylight saving. */
const NAIROBI_OFFSET_MS = 3 * 60 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

// The first whole day in Nairobi that can be stored: 0001-01-01 there starts in year 0 in UTC.
const FORM =
  'must be a date (2026-03-01) or a date-time with a time zone (2026-03-01T09:00:00Z) from 0001-01-02 to 9999-12-31';

/** The refusal of a period whose `from` is not before its `to`, as its detail says it (the dashboard's pages read it). */
export const PERIOD_NOT_FORWARD = 'must be before to';

export interface ListPeriod {
  /** At or after. */
  from: Date | undefined;
  /** Before. */
  to: Date | undefined;
}

/** The moments `from` and `to` name; 400 naming the parameter for one that is neither form, or `from` not before `to`. */
export function readListPeriod(text: { from: string | undefined; to: string | undefined }): ListPeriod {
  const problems: Array<{ path: string; message: string }> = [];
  const read = (name: 'from' | 'to', value: string | undefined): Date | undefined => {
    if (value === undefined) return undefined;
    const moment = momentOf(name, value);
    if (moment === undefined) problems.push({ path: `querystring/${name}`, message: FORM });
    return moment;
  };
  const from = read('from', text.from);
  const to = read('to', text.to);
  // An empty period is a mistake: a `to` day before the `from` day, or the same moment twice.
  if (from !== undefined && to !== undefined && from.getTime() >= to.getTime()) {
    problems.push({ path: 'querystring/from', message: PERIOD_NOT_FORWARD });
  }
  if (problems.length > 0) throw invalidFields(problems);
  return { from, to };
}

/**
 * The moment `value` names as `from` (when the day or moment starts) or `to` (a day ends when the next one starts);
 * undefined when it is neither form, names no real day or time, or falls outside what can be stored.
 */
function momentOf(name: 'from' | 'to', value: string): Date | undefined {
  if (!DATE.test(value)) return readStorableDateTime(value);
  const day = readStorableDate(value);
  if (day === undefined) return undefined;
  const start = new Date(day.getTime() - NAIROBI_OFFSET_MS);
  const moment = name === 'to' ? new Date(start.getTime() + DAY_MS) : start;
  return isStorableTime(moment) ? moment : undefined;
}
