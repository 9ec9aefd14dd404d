import { describe, expect, it } from 'vitest';
import { billingPeriod, dayOf } from './periods.js';

describe('billingPeriod', () => {
  it('counts every period from the anchor, clamping to the month end without drifting', () => {
    const days = (index: number) => {
      const period = billingPeriod('2024-01-31', 'monthly', index);
      return [dayOf(period.start), dayOf(period.end)];
    };
    expect(days(0)).toEqual(['2024-01-31', '2024-02-29']);
    expect(days(1)).toEqual(['2024-02-29', '2024-03-31']);
    expect(days(2)).toEqual(['2024-03-31', '2024-04-30']);
    expect(days(12)).toEqual(['2025-01-31', '2025-02-28']);
  });

  it('runs yearly periods from the anchor, whole UTC days', () => {
    const period = billingPeriod('2024-02-29', 'yearly', 1);
    expect(period).toEqual({
      anchor: '2024-02-29',
      index: 1,
      start: new Date('2025-02-28T00:00:00.000Z'),
      end: new Date('2026-02-28T00:00:00.000Z'),
    });
  });
});

describe('dayOf', () => {
  it('is the UTC calendar day', () => {
    expect(dayOf(new Date('2024-03-31T23:59:59.999Z'))).toBe('2024-03-31');
    expect(dayOf(new Date('2024-04-01T02:00:00+03:00'))).toBe('2024-03-31');
  });
});
