export {
  BILLING_CYCLES,
  MAX_SEATS,
  MIN_SEATS,
  PLANS,
  SEAT_TIERS,
  YEARLY_MONTHS,
  type BillingCycle,
  type Plan,
  type SeatRange,
  type SeatTier,
} from './catalog.js';
export type { DateInput } from './calendar.js';
export { PricingError, type PricingErrorCode } from './errors.js';
export { addBillingPeriod } from './period.js';
export {
  isSameSubscription,
  prorate,
  type CurrentSubscription,
  type ProrateInput,
  type Proration,
} from './prorate.js';
export { quote, type Quote, type SubscriptionTerms } from './quote.js';
export { isBillingCycle, isPlan } from './validate.js';
