/** Mail subscription plans, cheapest first. */
export const PLANS = Object.freeze(['core', 'growth', 'scale'] as const);
export type Plan = (typeof PLANS)[number];

/** How often a subscription is billed. */
export const BILLING_CYCLES = Object.freeze(['monthly', 'yearly'] as const);
export type BillingCycle = (typeof BILLING_CYCLES)[number];

export const MIN_SEATS = 1;
export const MAX_SEATS = 1_000_000;

/** Months charged for a yearly cycle: a year of service for the price of 10 months. */
export const YEARLY_MONTHS = 10;

/** A seat-count range; `maxSeats` is `null` for the open-ended top tier. */
export interface SeatRange {
  readonly minSeats: number;
  readonly maxSeats: number | null;
  readonly label: string;
}

export interface SeatTier extends SeatRange {
  /** Whole KES per seat per month, by plan. */
  readonly pricePerSeatMonthly: Readonly<Record<Plan, number>>;
}

function freezeTier(tier: SeatTier): SeatTier {
  Object.freeze(tier.pricePerSeatMonthly);
  return Object.freeze(tier);
}

/**
 * Volume tiers: every seat is priced at the tier that contains the total seat count.
 * Ordered by seat count, contiguous from MIN_SEATS, the last one open-ended.
 */
export const SEAT_TIERS: readonly SeatTier[] = Object.freeze([
  freezeTier({ minSeats: 1, maxSeats: 50, label: '1-50', pricePerSeatMonthly: { core: 100, growth: 150, scale: 220 } }),
  freezeTier({
    minSeats: 51,
    maxSeats: 500,
    label: '51-500',
    pricePerSeatMonthly: { core: 80, growth: 130, scale: 200 },
  }),
  freezeTier({
    minSeats: 501,
    maxSeats: 5_000,
    label: '501-5,000',
    pricePerSeatMonthly: { core: 60, growth: 110, scale: 180 },
  }),
  freezeTier({
    minSeats: 5_001,
    maxSeats: null,
    label: '5,001+',
    pricePerSeatMonthly: { core: 40, growth: 90, scale: 160 },
  }),
]);

/** Months charged for one billing period of the cycle. */
export function billedMonths(cycle: BillingCycle): number {
  return cycle === 'yearly' ? YEARLY_MONTHS : 1;
}

/** Calendar months one billing period of the cycle lasts. */
export function periodMonths(cycle: BillingCycle): number {
  return cycle === 'yearly' ? 12 : 1;
}
