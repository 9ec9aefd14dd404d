/**
 * numerator / denominator rounded to the nearest whole number, halves away from zero
 * (2.5 -> 3, -2.5 -> -3), so a downgrade's credit mirrors the matching upgrade's charge.
 * Integer arithmetic only: exact for any safe integers.
 */
export function divideRoundHalfAwayFromZero(numerator: number, denominator: number): number {
  if (!Number.isSafeInteger(numerator) || !Number.isSafeInteger(denominator) || denominator <= 0) {
    throw new RangeError(`cannot divide ${numerator} by ${denominator} exactly`);
  }
  const magnitude = Math.abs(numerator);
  const remainder = magnitude % denominator;
  const quotient = (magnitude - remainder) / denominator;
  // remainder * 2 >= denominator compares the fraction with one half without leaving integers.
  const rounded = remainder * 2 >= denominator ? quotient + 1 : quotient;
  return numerator < 0 && rounded !== 0 ? -rounded : rounded;
}
