import fc from 'fast-check';
import { BILLING_CYCLES, MAX_SEATS, MIN_SEATS, PLANS } from '../src/index.js';

export const planArb = fc.constantFrom(...PLANS);
export const cycleArb = fc.constantFrom(...BILLING_CYCLES);

/** Seat counts weighted towards tier edges and small teams, while still reaching a million. */
export const seatsArb = fc.oneof(
  fc.constantFrom(1, 50, 51, 500, 501, 5_000, 5_001, MAX_SEATS),
  fc.integer({ min: MIN_SEATS, max: 600 }),
  fc.integer({ min: MIN_SEATS, max: MAX_SEATS }),
);

export const termsArb = fc.record({ plan: planArb, seats: seatsArb, cycle: cycleArb });

/** A calendar day between 1990 and 2100 as 'YYYY-MM-DD', including month ends and leap days. */
export const isoDayArb = fc
  .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2100-12-31T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));

/** Test-side day arithmetic through the platform's Date, independent of the package's calendar code. */
export function addDays(isoDay: string, days: number): string {
  const date = new Date(`${isoDay}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / 86_400_000;
}

/** round(numerator / denominator), halves away from zero, in BigInt: an independent reference. */
export function referenceRound(numerator: number, denominator: number): number {
  const magnitude = BigInt(Math.abs(numerator));
  const rounded = (2n * magnitude + BigInt(denominator)) / (2n * BigInt(denominator));
  return numerator < 0 && rounded !== 0n ? -Number(rounded) : Number(rounded);
}
