import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { referenceRound } from '../test/arbitraries.js';
import { divideRoundHalfAwayFromZero } from './rounding.js';

describe('divideRoundHalfAwayFromZero', () => {
  it.each([
    [5, 2, 3],
    [-5, 2, -3],
    [7, 2, 4],
    [4, 3, 1],
    [5, 3, 2],
    [-4, 3, -1],
    [-5, 3, -2],
    [175, 14, 13],
    [-175, 14, -13],
    [0, 7, 0],
    [1, 3, 0],
  ])('%i / %i rounds to %i', (numerator, denominator, expected) => {
    expect(divideRoundHalfAwayFromZero(numerator, denominator)).toBe(expected);
  });

  it('never returns negative zero', () => {
    expect(Object.is(divideRoundHalfAwayFromZero(-1, 3), 0)).toBe(true);
  });

  it('agrees with an exact BigInt reference and is symmetric around zero', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), fc.integer({ min: 1, max: 400 }), (numerator, denominator) => {
        const rounded = divideRoundHalfAwayFromZero(numerator, denominator);
        expect(rounded).toBe(referenceRound(numerator, denominator));
        expect(divideRoundHalfAwayFromZero(-numerator, denominator)).toBe(rounded === 0 ? 0 : -rounded);
      }),
    );
  });

  it.each([
    [1, 0],
    [1, -2],
    [1.5, 2],
    [1, 2.5],
  ])('refuses %s / %s', (numerator, denominator) => {
    expect(() => divideRoundHalfAwayFromZero(numerator, denominator)).toThrow(RangeError);
  });
});
