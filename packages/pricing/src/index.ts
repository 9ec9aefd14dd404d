export type { DateInput } from './calendar.js';
export {
  BILLING_CYCLES,
  type BillingCycle,
  MAX_SEATS,
  MIN_SEATS,
  PLANS,
  type Plan,
  SEAT_TIERS,
  type SeatRange,
  type SeatTier,
  YEARLY_MONTHS,
} from './catalog.js';
export { PricingError, type PricingErrorCode } from './errors.js';
export { formatKes } from './format.js';
export { addBillingPeriod } from './period.js';
export {
  type CurrentSubscription,
  isSameSubscription,
  type ProrateInput,
  type Proration,
  prorate,
} from './prorate.js';
export { type Quote, quote, type SubscriptionTerms } from './quote.js';
export { isBillingCycle, isPlan } from './validate.js';
export { VAT_RATE_PERCENT, type VatBreakdown, vatIncluded } from './vat.js';
