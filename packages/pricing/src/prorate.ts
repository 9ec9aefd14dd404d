import { type DateInput, dayNumber, formatCalendarDay, toCalendarDay } from './calendar.js';
import { PricingError } from './errors.js';
import { addBillingPeriods } from './period.js';
import { type Quote, quoteTerms, type SubscriptionTerms } from './quote.js';
import { divideRoundHalfAwayFromZero } from './rounding.js';
import { assertCreditBalance } from './validate.js';

/** The subscription as it stands, with its current billing period [periodStart, periodEnd). */
export interface CurrentSubscription extends SubscriptionTerms {
  readonly periodStart: DateInput;
  /** Exclusive: the first day of the next period. */
  readonly periodEnd: DateInput;
}

export interface ProrateInput {
  readonly current: CurrentSubscription;
  readonly next: SubscriptionTerms;
  /** The day of the change; must fall within the current period. */
  readonly today: DateInput;
  /** Credit the organization already holds, whole KES. Defaults to 0. */
  readonly creditBalance?: number;
}

/** The outcome of changing a subscription today. Money in whole KES, dates as `'YYYY-MM-DD'`. */
export interface Proration {
  /** To charge now: max(0, net - creditBalance). */
  readonly amountDueToday: number;
  /** Add this to the credit balance: positive when a downgrade earns credit, negative when credit pays part of the change. */
  readonly creditBalanceChange: number;
  /** The change's value before credit is applied: positive is owed by the customer, negative is owed to them. */
  readonly net: number;
  /** D: days in the current period. */
  readonly daysInPeriod: number;
  /** r: days from today (inclusive) to the current period's end (exclusive), 1..D. */
  readonly daysRemaining: number;
  readonly cycleChanged: boolean;
  /** The period the new terms run in: the current one, or a fresh one from today when the cycle changes. */
  readonly newPeriod: { readonly start: string; readonly end: string };
  readonly currentQuote: Quote;
  readonly nextQuote: Quote;
}

/**
 * Prices a change of plan, seats or cycle in the middle of a billing period, by whole UTC days.
 *
 * - Same cycle: the period stays; net = round((nextTotal - currentTotal) x r / D).
 * - Cycle change: a new period of the new cycle starts today; net = nextTotal - round(currentTotal x r / D).
 *
 * Rounding is to the nearest whole KES, halves away from zero. Unchanged terms give a net of 0:
 * use isSameSubscription to reject them before calling this.
 * Throws PricingError on invalid terms, dates, a period that does not contain `today`, or a bad credit balance.
 */
export function prorate(input: ProrateInput): Proration {
  const { current, next, today, creditBalance = 0 } = input;
  const currentQuote = quoteTerms(current, 'current.');
  const nextQuote = quoteTerms(next, 'next.');
  const periodStart = toCalendarDay(current.periodStart, 'current.periodStart');
  const periodEnd = toCalendarDay(current.periodEnd, 'current.periodEnd');
  const day = toCalendarDay(today, 'today');
  const credit = assertCreditBalance(creditBalance, 'creditBalance');

  const [startNumber, endNumber, todayNumber] = [dayNumber(periodStart), dayNumber(periodEnd), dayNumber(day)];
  if (endNumber <= startNumber) {
    throw new PricingError(
      'invalid_period',
      'current.periodEnd',
      `current.periodEnd (${formatCalendarDay(periodEnd)}) must be after current.periodStart (${formatCalendarDay(periodStart)})`,
    );
  }
  if (todayNumber < startNumber || todayNumber >= endNumber) {
    throw new PricingError(
      'invalid_period',
      'today',
      `today (${formatCalendarDay(day)}) must be within the current period, from ${formatCalendarDay(periodStart)} up to but not including ${formatCalendarDay(periodEnd)}`,
    );
  }

  const daysInPeriod = endNumber - startNumber;
  const daysRemaining = endNumber - todayNumber;
  const cycleChanged = currentQuote.cycle !== nextQuote.cycle;

  const net = cycleChanged
    ? nextQuote.total - divideRoundHalfAwayFromZero(currentQuote.total * daysRemaining, daysInPeriod)
    : divideRoundHalfAwayFromZero((nextQuote.total - currentQuote.total) * daysRemaining, daysInPeriod);
  const newPeriod = cycleChanged
    ? { start: formatCalendarDay(day), end: formatCalendarDay(addBillingPeriods(day, nextQuote.cycle, 1)) }
    : { start: formatCalendarDay(periodStart), end: formatCalendarDay(periodEnd) };

  return {
    ...settleWithCredit(net, credit),
    net,
    daysInPeriod,
    daysRemaining,
    cycleChanged,
    newPeriod,
    currentQuote,
    nextQuote,
  };
}

/** Credit pays a charge first; a negative net becomes credit; nothing is refunded. */
function settleWithCredit(net: number, credit: number): { amountDueToday: number; creditBalanceChange: number } {
  if (net <= 0) return { amountDueToday: 0, creditBalanceChange: net === 0 ? 0 : -net };
  const creditUsed = Math.min(credit, net);
  return { amountDueToday: net - creditUsed, creditBalanceChange: creditUsed === 0 ? 0 : -creditUsed };
}

/** True when two sets of terms are the same plan, seat count and cycle, i.e. a "change" would change nothing. */
export function isSameSubscription(a: SubscriptionTerms, b: SubscriptionTerms): boolean {
  const [first, second] = [quoteTerms(a, 'a.'), quoteTerms(b, 'b.')];
  return first.plan === second.plan && first.seats === second.seats && first.cycle === second.cycle;
}
