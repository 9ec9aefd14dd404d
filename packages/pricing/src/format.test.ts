import { describe, expect, it } from 'vitest';
import { formatKes } from './format.js';

describe('formatKes', () => {
  it.each([
    [0, 'KES 0'],
    [50, 'KES 50'],
    [1_500, 'KES 1,500'],
    [4_500_900, 'KES 4,500,900'],
    [-2_000, 'KES -2,000'],
  ])('writes %d as %s', (amount, written) => {
    expect(formatKes(amount)).toBe(written);
  });
});
