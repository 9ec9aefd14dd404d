import { BILLING_CYCLES, type BillingCycle, MAX_SEATS, MIN_SEATS, PLANS, type Plan } from './catalog.js';
import { describeValue, PricingError } from './errors.js';

export function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

export function isBillingCycle(value: unknown): value is BillingCycle {
  return typeof value === 'string' && (BILLING_CYCLES as readonly string[]).includes(value);
}

export function assertPlan(value: unknown, field: string): Plan {
  if (isPlan(value)) return value;
  throw new PricingError(
    'unknown_plan',
    field,
    `${field} must be one of ${PLANS.join(', ')} (got ${describeValue(value)})`,
  );
}

export function assertBillingCycle(value: unknown, field: string): BillingCycle {
  if (isBillingCycle(value)) return value;
  throw new PricingError(
    'unknown_cycle',
    field,
    `${field} must be one of ${BILLING_CYCLES.join(', ')} (got ${describeValue(value)})`,
  );
}

export function assertSeats(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= MIN_SEATS && value <= MAX_SEATS) return value;
  throw new PricingError(
    'invalid_seats',
    field,
    `${field} must be a whole number from ${groupThousands(MIN_SEATS)} to ${groupThousands(MAX_SEATS)} (got ${describeValue(value)})`,
  );
}

export function assertCreditBalance(value: unknown, field: string): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value === 0 ? 0 : value;
  throw new PricingError(
    'invalid_credit',
    field,
    `${field} must be a whole number of KES, 0 or more (got ${describeValue(value)})`,
  );
}

/** 1000000 -> "1,000,000", independent of the runtime's locale. */
function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
