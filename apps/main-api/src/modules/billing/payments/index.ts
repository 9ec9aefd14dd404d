// What other modules may use of payments: the provider port the adapters implement, settling a provider's
// result, and what the subscriptions and the billing routes need.

export { raisePaymentAlarm } from './alarms.js';
export type { PaymentLog } from './log.js';
export { settleMobileMoneyResult } from './mobile-money-results.js';
export { ProviderRejectedError, ProviderUnavailableError } from './provider-errors.js';
export type {
  CardProvider,
  CheckoutRequest,
  MobileMoneyProvider,
  MobileMoneyRequest,
  MobileMoneyResults,
  PaymentProviders,
  ProviderOutcome,
  ReusableCard,
  SavedCardCharge,
} from './provider-port.js';
export { returnUrlFor } from './return-url.js';
export { checkDelayOf, confirmationDelayOf, paymentByReference } from './service.js';
export { type SettlementContext, type SettlementResult, settlePayment } from './settle.js';
