/** Machine-readable reason a pricing input was rejected. */
export type PricingErrorCode =
  | 'unknown_plan'
  | 'unknown_cycle'
  | 'invalid_seats'
  | 'invalid_date'
  | 'invalid_period'
  | 'invalid_credit'
  | 'invalid_amount'
  | 'invalid_rate';

/**
 * Thrown for any input the price rules cannot accept. `field` names the offending input
 * (`seats`, `next.plan`, `current.periodEnd`, `today`, ...) so a caller can point a user at it.
 */
export class PricingError extends Error {
  override readonly name = 'PricingError';
  readonly code: PricingErrorCode;
  readonly field: string;

  constructor(code: PricingErrorCode, field: string, message: string) {
    super(message);
    this.code = code;
    this.field = field;
  }
}

/** Renders a rejected value for an error message: strings quoted, numbers as written, objects by kind. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || value === undefined || typeof value === 'boolean') return String(value);
  if (isDateObject(value)) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (Array.isArray(value)) return 'an array';
  return `a value of type ${typeof value}`;
}

/** Date check that also works for Dates made in another realm (iframe, vm), where instanceof fails. */
export function isDateObject(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}
