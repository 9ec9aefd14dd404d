import {
  type CalendarDay,
  type DateInput,
  daysInMonth,
  formatCalendarDay,
  MAX_YEAR,
  toCalendarDay,
} from './calendar.js';
import { type BillingCycle, periodMonths } from './catalog.js';
import { describeValue, PricingError } from './errors.js';
import { assertBillingCycle } from './validate.js';

/**
 * The day `count` billing periods after `start`, as `'YYYY-MM-DD'`.
 *
 * Periods are calendar months (monthly) or calendar years (yearly) counted from `start`, the anchor.
 * When the anchor's day does not exist in the target month, the month's last day is used:
 * 2024-01-31 + 1 month = 2024-02-29, and 2024-02-29 + 1 year = 2025-02-28.
 * The n-th period end is always computed from the anchor, never by chaining, so the anchor's day
 * comes back once the month is long enough: 2024-01-31 -> 2024-02-29 -> 2024-03-31 (counts 1, 2).
 */
export function addBillingPeriod(start: DateInput, cycle: BillingCycle, count = 1): string {
  const anchor = toCalendarDay(start, 'start');
  const checkedCycle = assertBillingCycle(cycle, 'cycle');
  if (!Number.isSafeInteger(count) || count < 0) {
    throw new PricingError(
      'invalid_period',
      'count',
      `count must be a whole number, 0 or more (got ${describeValue(count)})`,
    );
  }
  return formatCalendarDay(addBillingPeriods(anchor, checkedCycle, count));
}

/** Validated-input form of addBillingPeriod. */
export function addBillingPeriods(anchor: CalendarDay, cycle: BillingCycle, count: number): CalendarDay {
  const monthIndex = anchor.year * 12 + (anchor.month - 1) + count * periodMonths(cycle);
  const year = (monthIndex - (monthIndex % 12)) / 12;
  if (year > MAX_YEAR) {
    throw new PricingError('invalid_period', 'count', `count ${count} reaches past the year ${MAX_YEAR}`);
  }
  const month = (monthIndex % 12) + 1;
  return { year, month, day: Math.min(anchor.day, daysInMonth(year, month)) };
}
