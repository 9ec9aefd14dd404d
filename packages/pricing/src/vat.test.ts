import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PricingError } from './errors.js';
import { VAT_RATE_PERCENT, vatIncluded } from './vat.js';

describe('vatIncluded', () => {
  it.each([
    // growth, 5,001 seats, yearly: 5,001 x 90 x 10
    [4_500_900, 3_880_086, 620_814],
    [116, 100, 16],
    [1_000, 862, 138],
    [1, 1, 0],
    [0, 0, 0],
    // 29 x 16 / 116 = 4 exactly; 58 x 16 / 116 = 8
    [29, 25, 4],
    [58, 50, 8],
  ])('splits KES %i into net %i and VAT %i at 16%%', (total, net, vat) => {
    expect(vatIncluded(total)).toEqual({ total, net, vat, ratePercent: 16 });
  });

  it('rounds the VAT half away from zero: 3.5 shillings of VAT is 4', () => {
    // 7 x 50 / 100 = 3.5 at a rate of 100% (VAT = half the total)
    expect(vatIncluded(7, 100)).toEqual({ total: 7, net: 3, vat: 4, ratePercent: 100 });
  });

  it('keeps net + VAT equal to the total, and the VAT within half a shilling of the exact share', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), fc.integer({ min: 0, max: 100 }), (total, ratePercent) => {
        const { net, vat } = vatIncluded(total, ratePercent);
        expect(net + vat).toBe(total);
        expect(net).toBeGreaterThanOrEqual(0);
        // |vat x (100 + rate) - total x rate| <= (100 + rate) / 2, in integers
        const error = Math.abs(vat * (100 + ratePercent) - total * ratePercent);
        expect(2 * error).toBeLessThanOrEqual(100 + ratePercent);
      }),
    );
  });

  it('uses Kenya’s standard rate by default', () => {
    expect(VAT_RATE_PERCENT).toBe(16);
    expect(vatIncluded(2_320)).toEqual(vatIncluded(2_320, 16));
  });

  it.each([
    [-1, 'total must be a whole number of KES, 0 or more (got -1)'],
    [10.5, 'total must be a whole number of KES, 0 or more (got 10.5)'],
    [Number.NaN, 'total must be a whole number of KES, 0 or more (got NaN)'],
  ])('refuses a total of %s', (total, message) => {
    expect(() => vatIncluded(total)).toThrow(new PricingError('invalid_amount', 'total', message));
  });

  it.each([-1, 101, 16.5])('refuses a rate of %s', (rate) => {
    let caught: unknown;
    try {
      vatIncluded(100, rate);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PricingError);
    expect(caught).toMatchObject({ code: 'invalid_rate', field: 'ratePercent' });
  });
});
