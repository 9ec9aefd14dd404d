import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cycleArb, planArb, seatsArb } from '../test/arbitraries.js';
import { type BillingCycle, type Plan, PricingError, quote, SEAT_TIERS } from './index.js';

// Written by hand from the spec's table (section 2.2): seats x per-seat monthly price; yearly = 10 x monthly.
// [plan, seats, tier label, price per seat per month, monthly total, yearly total]
const SPEC_TABLE: ReadonlyArray<readonly [Plan, number, string, number, number, number]> = [
  ['core', 1, '1-50', 100, 100, 1_000],
  ['core', 50, '1-50', 100, 5_000, 50_000],
  ['core', 51, '51-500', 80, 4_080, 40_800],
  ['core', 500, '51-500', 80, 40_000, 400_000],
  ['core', 501, '501-5,000', 60, 30_060, 300_600],
  ['core', 5_000, '501-5,000', 60, 300_000, 3_000_000],
  ['core', 5_001, '5,001+', 40, 200_040, 2_000_400],
  ['core', 1_000_000, '5,001+', 40, 40_000_000, 400_000_000],
  ['growth', 1, '1-50', 150, 150, 1_500],
  ['growth', 50, '1-50', 150, 7_500, 75_000],
  ['growth', 51, '51-500', 130, 6_630, 66_300],
  ['growth', 500, '51-500', 130, 65_000, 650_000],
  ['growth', 501, '501-5,000', 110, 55_110, 551_100],
  ['growth', 5_000, '501-5,000', 110, 550_000, 5_500_000],
  ['growth', 5_001, '5,001+', 90, 450_090, 4_500_900],
  ['growth', 1_000_000, '5,001+', 90, 90_000_000, 900_000_000],
  ['scale', 1, '1-50', 220, 220, 2_200],
  ['scale', 50, '1-50', 220, 11_000, 110_000],
  ['scale', 51, '51-500', 200, 10_200, 102_000],
  ['scale', 500, '51-500', 200, 100_000, 1_000_000],
  ['scale', 501, '501-5,000', 180, 90_180, 901_800],
  ['scale', 5_000, '501-5,000', 180, 900_000, 9_000_000],
  ['scale', 5_001, '5,001+', 160, 800_160, 8_001_600],
  ['scale', 1_000_000, '5,001+', 160, 160_000_000, 1_600_000_000],
];

describe('quote: the spec price table at every tier edge', () => {
  it.each(SPEC_TABLE)(
    '%s with %i seats is in tier %s at %i KES per seat',
    (plan, seats, label, price, monthly, yearly) => {
      const monthlyQuote = quote({ plan, seats, cycle: 'monthly' });
      expect(monthlyQuote.tier.label).toBe(label);
      expect(monthlyQuote.pricePerSeatMonthly).toBe(price);
      expect(monthlyQuote.monthlyTotal).toBe(monthly);
      expect(monthlyQuote.total).toBe(monthly);

      const yearlyQuote = quote({ plan, seats, cycle: 'yearly' });
      expect(yearlyQuote.monthlyTotal).toBe(monthly);
      expect(yearlyQuote.total).toBe(yearly);
    },
  );

  it('returns the terms it priced and the tier bounds', () => {
    expect(quote({ plan: 'growth', seats: 120, cycle: 'yearly' })).toEqual({
      plan: 'growth',
      seats: 120,
      cycle: 'yearly',
      tier: { minSeats: 51, maxSeats: 500, label: '51-500' },
      pricePerSeatMonthly: 130,
      monthlyTotal: 15_600,
      total: 156_000,
    });
    expect(quote({ plan: 'core', seats: 9_999, cycle: 'monthly' }).tier).toEqual({
      minSeats: 5_001,
      maxSeats: null,
      label: '5,001+',
    });
  });
});

describe('quote: properties', () => {
  it('yearly total is 10 times the monthly total', () => {
    fc.assert(
      fc.property(planArb, seatsArb, (plan, seats) => {
        const monthly = quote({ plan, seats, cycle: 'monthly' });
        const yearly = quote({ plan, seats, cycle: 'yearly' });
        expect(yearly.total).toBe(10 * monthly.total);
        expect(yearly.monthlyTotal).toBe(monthly.monthlyTotal);
      }),
    );
  });

  it('prices every seat at the tier containing the seat count, in whole KES', () => {
    fc.assert(
      fc.property(planArb, seatsArb, cycleArb, (plan, seats, cycle) => {
        const result = quote({ plan, seats, cycle });
        expect(seats).toBeGreaterThanOrEqual(result.tier.minSeats);
        if (result.tier.maxSeats !== null) expect(seats).toBeLessThanOrEqual(result.tier.maxSeats);
        expect(result.monthlyTotal).toBe(seats * result.pricePerSeatMonthly);
        expect(Number.isSafeInteger(result.total)).toBe(true);
      }),
    );
  });
});

describe('quote: rejected input', () => {
  function rejection(call: () => unknown): PricingError {
    try {
      call();
    } catch (error) {
      if (error instanceof PricingError) return error;
      throw error;
    }
    throw new Error('expected a PricingError');
  }

  it.each([0, 1_000_001, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY, '10', null, undefined])(
    'rejects seats %s',
    (seats) => {
      const error = rejection(() => quote({ plan: 'core', seats: seats as number, cycle: 'monthly' }));
      expect(error.code).toBe('invalid_seats');
      expect(error.field).toBe('seats');
      expect(error.message).toMatch(/^seats must be a whole number from 1 to 1,000,000 \(got .+\)$/);
    },
  );

  it('says what it got, in a form a developer recognises', () => {
    const got = (seats: unknown): string =>
      rejection(() => quote({ plan: 'core', seats: seats as number, cycle: 'monthly' })).message;
    expect(got(0)).toBe('seats must be a whole number from 1 to 1,000,000 (got 0)');
    expect(got('10')).toBe('seats must be a whole number from 1 to 1,000,000 (got "10")');
    expect(got(Number.NaN)).toBe('seats must be a whole number from 1 to 1,000,000 (got NaN)');
  });

  it.each(['pro', 'Core', '', undefined, 1])('rejects plan %s', (plan) => {
    const error = rejection(() => quote({ plan: plan as Plan, seats: 10, cycle: 'monthly' }));
    expect(error.code).toBe('unknown_plan');
    expect(error.field).toBe('plan');
    expect(error.message).toMatch(/^plan must be one of core, growth, scale \(got .+\)$/);
  });

  it.each(['weekly', 'annual', 'Monthly', undefined])('rejects cycle %s', (cycle) => {
    const error = rejection(() => quote({ plan: 'core', seats: 10, cycle: cycle as BillingCycle }));
    expect(error.code).toBe('unknown_cycle');
    expect(error.field).toBe('cycle');
    expect(error.message).toMatch(/^cycle must be one of monthly, yearly \(got .+\)$/);
  });

  it('is an Error with a recognisable name', () => {
    const error = rejection(() => quote({ plan: 'core', seats: 0, cycle: 'monthly' }));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PricingError');
  });
});

describe('the tier table is data that cannot be altered by a caller', () => {
  it('is contiguous from 1 and open-ended at the top', () => {
    expect(SEAT_TIERS[0]?.minSeats).toBe(1);
    for (const [index, tier] of SEAT_TIERS.slice(1).entries())
      expect(tier.minSeats).toBe((SEAT_TIERS[index]?.maxSeats ?? 0) + 1);
    expect(SEAT_TIERS.at(-1)?.maxSeats).toBeNull();
  });

  it('is frozen', () => {
    expect(Object.isFrozen(SEAT_TIERS)).toBe(true);
    for (const tier of SEAT_TIERS) {
      expect(Object.isFrozen(tier)).toBe(true);
      expect(Object.isFrozen(tier.pricePerSeatMonthly)).toBe(true);
    }
  });
});
