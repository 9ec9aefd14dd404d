import { type BillingCycle, billedMonths, type Plan, SEAT_TIERS, type SeatRange, type SeatTier } from './catalog.js';
import { assertBillingCycle, assertPlan, assertSeats } from './validate.js';

/** What is being bought: plan, number of seats (mailboxes) and billing cycle. */
export interface SubscriptionTerms {
  readonly plan: Plan;
  readonly seats: number;
  readonly cycle: BillingCycle;
}

/** The price of a set of terms. All amounts are whole KES. */
export interface Quote {
  readonly plan: Plan;
  readonly seats: number;
  readonly cycle: BillingCycle;
  /** The tier containing the total seat count; every seat is priced at it. */
  readonly tier: SeatRange;
  readonly pricePerSeatMonthly: number;
  /** seats x pricePerSeatMonthly. */
  readonly monthlyTotal: number;
  /** What one billing period costs: monthlyTotal, or monthlyTotal x 10 for yearly. */
  readonly total: number;
}

/**
 * Prices a subscription. Throws PricingError (`unknown_plan`, `invalid_seats`, `unknown_cycle`) on bad input.
 *
 * @example quote({ plan: 'growth', seats: 120, cycle: 'yearly' }).total // 156000
 */
export function quote(terms: SubscriptionTerms): Quote {
  return quoteTerms(terms, '');
}

/** quote(), naming fields with `fieldPrefix` (`'next.'`) in errors. */
export function quoteTerms(terms: SubscriptionTerms, fieldPrefix: string): Quote {
  const input: Partial<Record<keyof SubscriptionTerms, unknown>> = terms ?? {};
  const plan = assertPlan(input.plan, `${fieldPrefix}plan`);
  const seats = assertSeats(input.seats, `${fieldPrefix}seats`);
  const cycle = assertBillingCycle(input.cycle, `${fieldPrefix}cycle`);
  const tier = seatTierFor(seats);
  const pricePerSeatMonthly = tier.pricePerSeatMonthly[plan];
  const monthlyTotal = seats * pricePerSeatMonthly;
  return {
    plan,
    seats,
    cycle,
    tier: { minSeats: tier.minSeats, maxSeats: tier.maxSeats, label: tier.label },
    pricePerSeatMonthly,
    monthlyTotal,
    total: monthlyTotal * billedMonths(cycle),
  };
}

/** The tier containing a (valid) seat count. */
function seatTierFor(seats: number): SeatTier {
  const tier = SEAT_TIERS.find((candidate) => candidate.maxSeats === null || seats <= candidate.maxSeats);
  // SEAT_TIERS ends with an open-ended tier, so a valid seat count always finds one.
  if (!tier) throw new RangeError(`no seat tier contains ${seats}`);
  return tier;
}
