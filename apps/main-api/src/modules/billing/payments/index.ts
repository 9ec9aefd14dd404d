// What other modules may use of payments: the provider port the adapters implement (and the errors they report
// failures with); what the providers' inbound side hands a verified result to; the routes, the reconciliation
// job and what the billing routes assemble them with; when the reconciliation job first looks at a payment
// (subscriptions record their own charges); the invoice port and what bank transfers are settled with; and the rules
// of a retired organization's money (docs/decisions.md#retired-organizations-take-no-money).

export { paymentAlarmsIn, raisePaymentAlarm } from './alarms.js';
export { earlierAttemptOf, startedByOf } from './attempts.js';
export { invoicePathOf } from './bank-transfer.js';
export { chargeSavedCard, chargeSavedCardPayment } from './charge-saved-card.js';
export type {
  InvoiceIssuer,
  PaidFor,
  PaymentHooks,
  ReceiptIssueOptions,
  ReceiptIssuer,
  TransferInvoice,
  TransferTerms,
} from './hooks.js';
export type { PaymentLog } from './log.js';
export { missingReceiptRounds } from './missing-receipts.js';
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
export { reconcilePayments } from './reconciliation.js';
export { isPaymentReference, newPaymentReference, newTransferReference, readTransferReference } from './reference.js';
export { insertPendingPayment, type StartedBy } from './repository.js';
export {
  assertTakesPayments,
  ORGANIZATION_RETIRED,
  RETIREMENT_SOURCE,
  recordRefundDue,
  retiredAtOf,
  voidForRetirement,
} from './retired-organizations.js';
export { countPendingWithProviders, lockOrganizationForMoney } from './retirement-repository.js';
export { returnUrlFor } from './return-url.js';
export { checkoutCompleteRoutes, paymentRoutes } from './routes.js';
export { oneOf, paymentSharedSchemas } from './schemas.js';
export { checkDelayOf, confirmationDelayOf, paymentByReference } from './service.js';
export { type SettlementContext, type SettlementResult, settleFoundPayment, settlePayment } from './settle.js';
export { paymentStarted } from './start.js';
