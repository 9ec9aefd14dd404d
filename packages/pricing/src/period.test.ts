import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cycleArb, daysBetween, isoDayArb } from '../test/arbitraries.js';
import { addBillingPeriod, type BillingCycle, PricingError } from './index.js';

describe('addBillingPeriod: calendar months and years from the anchor', () => {
  it.each<[string, BillingCycle, number, string]>([
    ['2024-01-15', 'monthly', 1, '2024-02-15'],
    ['2024-12-15', 'monthly', 1, '2025-01-15'],
    ['2024-01-31', 'monthly', 1, '2024-02-29'],
    ['2023-01-31', 'monthly', 1, '2023-02-28'],
    ['2024-01-31', 'monthly', 2, '2024-03-31'],
    ['2024-01-31', 'monthly', 3, '2024-04-30'],
    ['2024-01-30', 'monthly', 1, '2024-02-29'],
    ['2024-01-30', 'monthly', 2, '2024-03-30'],
    ['2024-03-31', 'monthly', 1, '2024-04-30'],
    ['2024-08-31', 'monthly', 6, '2025-02-28'],
    ['1900-01-31', 'monthly', 1, '1900-02-28'],
    ['2000-01-31', 'monthly', 1, '2000-02-29'],
    ['2100-01-29', 'monthly', 1, '2100-02-28'],
    ['2024-02-29', 'yearly', 1, '2025-02-28'],
    ['2024-02-29', 'yearly', 4, '2028-02-29'],
    ['2023-06-30', 'yearly', 1, '2024-06-30'],
    ['2024-05-17', 'monthly', 0, '2024-05-17'],
  ])('%s + %s x %i = %s', (start, cycle, count, expected) => {
    expect(addBillingPeriod(start, cycle, count)).toBe(expected);
  });

  it('adds one period by default and reads a Date as its UTC day', () => {
    expect(addBillingPeriod('2024-01-31', 'monthly')).toBe('2024-02-29');
    expect(addBillingPeriod(new Date('2024-01-31T23:30:00Z'), 'monthly')).toBe('2024-02-29');
    expect(addBillingPeriod(new Date('2024-01-31T23:30:00-05:00'), 'monthly')).toBe('2024-03-01');
  });

  it('keeps the anchor day whenever the month has it, and the month end otherwise', () => {
    fc.assert(
      fc.property(isoDayArb, fc.integer({ min: 0, max: 600 }), (start, count) => {
        const end = addBillingPeriod(start, 'monthly', count);
        const anchorDay = Number(start.slice(8, 10));
        const [year, month, day] = end.split('-').map(Number) as [number, number, number];
        const monthLength = new Date(Date.UTC(year, month, 0)).getUTCDate();
        expect(day).toBe(Math.min(anchorDay, monthLength));
        const monthsMoved = (year - Number(start.slice(0, 4))) * 12 + (month - Number(start.slice(5, 7)));
        expect(monthsMoved).toBe(count);
      }),
    );
  });

  it('gives monthly periods of 28-31 days and yearly periods of 365-366 days', () => {
    fc.assert(
      fc.property(isoDayArb, cycleArb, fc.integer({ min: 0, max: 100 }), (anchor, cycle, index) => {
        const length = daysBetween(addBillingPeriod(anchor, cycle, index), addBillingPeriod(anchor, cycle, index + 1));
        if (cycle === 'monthly') {
          expect(length).toBeGreaterThanOrEqual(28);
          expect(length).toBeLessThanOrEqual(31);
        } else {
          expect([365, 366]).toContain(length);
        }
      }),
    );
  });

  it('makes a year the same as twelve months', () => {
    fc.assert(
      fc.property(isoDayArb, fc.integer({ min: 0, max: 50 }), (anchor, years) => {
        expect(addBillingPeriod(anchor, 'yearly', years)).toBe(addBillingPeriod(anchor, 'monthly', years * 12));
      }),
    );
  });

  it.each([
    '2023-02-29',
    '2024-13-01',
    '2024-00-10',
    '2024-04-31',
    '2024-1-01',
    '2024-01-01T00:00:00Z',
    '',
    '0000-01-01',
  ])('rejects the start %s', (start) => {
    expect(() => addBillingPeriod(start, 'monthly')).toThrow(
      expect.objectContaining({ code: 'invalid_date', field: 'start' }),
    );
  });

  it('rejects an invalid Date, an unknown cycle and a bad count', () => {
    expect(() => addBillingPeriod(new Date('not a date'), 'monthly')).toThrow(
      new PricingError(
        'invalid_date',
        'start',
        'start must be a real calendar date as YYYY-MM-DD or a Date (got Invalid Date)',
      ),
    );
    expect(() => addBillingPeriod('2024-01-01', 'weekly' as BillingCycle)).toThrow(
      expect.objectContaining({ code: 'unknown_cycle', field: 'cycle' }),
    );
    for (const count of [-1, 1.5, Number.NaN]) {
      expect(() => addBillingPeriod('2024-01-01', 'monthly', count)).toThrow(
        expect.objectContaining({ code: 'invalid_period', field: 'count' }),
      );
    }
    expect(() => addBillingPeriod('9999-12-01', 'monthly')).toThrow(
      expect.objectContaining({ code: 'invalid_period', field: 'count' }),
    );
  });
});
