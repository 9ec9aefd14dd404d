import { describeValue, PricingError } from './errors.js';
import { divideRoundHalfAwayFromZero } from './rounding.js';

/** Kenya's standard rate of VAT, in percent. */
export const VAT_RATE_PERCENT = 16;

/** A VAT-inclusive amount split into what it is without VAT and the VAT in it, in whole KES. */
export interface VatBreakdown {
  /** The amount paid, VAT included. */
  total: number;
  /** `total - vat`. */
  net: number;
  vat: number;
  /** The rate applied, in whole percent. */
  ratePercent: number;
}

/**
 * The VAT included in `total` (whole KES) at `ratePercent`: vat = round(total x rate / (100 + rate)), halves away
 * from zero, and net = total - vat, so net + vat is always exactly the total paid. 4,500,900 at 16%: VAT 620,814,
 * net 3,880,086. Integer arithmetic only.
 */
export function vatIncluded(total: number, ratePercent: number = VAT_RATE_PERCENT): VatBreakdown {
  if (!Number.isSafeInteger(total) || total < 0) {
    throw new PricingError(
      'invalid_amount',
      'total',
      `total must be a whole number of KES, 0 or more (got ${describeValue(total)})`,
    );
  }
  if (!Number.isInteger(ratePercent) || ratePercent < 0 || ratePercent > 100) {
    throw new PricingError(
      'invalid_rate',
      'ratePercent',
      `ratePercent must be a whole number from 0 to 100 (got ${describeValue(ratePercent)})`,
    );
  }
  const vat = divideRoundHalfAwayFromZero(total * ratePercent, 100 + ratePercent);
  return { total, net: total - vat, vat, ratePercent };
}
