// What other modules may use of payments: the provider port the adapters implement (and the errors they report
// failures with); what the providers' inbound side hands a verified result to; the routes, the reconciliation
// job and what the billing routes assemble them with; when the reconciliation job first looks at a payment
// (subscriptions record their own charges); the ports other modules implement (the payment hooks, the receipt and
// invoice issuers, the subscription purchase rule) and what bank transfers are settled with; and the rules of a
// retired organization's money (docs/decisions.md#retired-organizations-take-no-money).

export { paymentAlarmsIn, raisePaymentAlarm } from './alarms.js';
export { chargeSavedCard, chargeSavedCardPayment } from './charge-saved-card.js';
export { checkDelayOf, confirmationDelayOf } from './check-delays.js';
export { invoicePageOf, receiptPageOf } from './document-links.js';
export { earlierAttemptOf, startedByOf } from './earlier-attempts.js';
export type { InvoiceIssuer, TransferInvoice, TransferTerms } from './invoice-issuer.js';
export { listPayments, type PaymentFilter, paymentExport } from './list-payments.js';
export type { PaymentLog } from './log.js';
export { paymentByReference } from './look-up-payment.js';
export { missingReceiptRounds } from './missing-receipts.js';
export { settleMobileMoneyResult } from './mobile-money-results.js';
export type { PaidFor, PaymentHooks } from './payment-hooks.js';
export { paymentsCsv } from './payments-csv.js';
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
export type { ReceiptIssueOptions, ReceiptIssuer } from './receipt-issuer.js';
export { reconcilePayments } from './reconcile.js';
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
export { countPendingWithProviders, hasPaymentHistory, lockOrganizationForMoney } from './retirement-repository.js';
export { returnUrlFor } from './return-url.js';
export { checkoutCompleteRoutes, paymentRoutes } from './routes.js';
export { oneOf, type PaymentView, paymentSharedSchemas } from './schemas.js';
export { type SettlementContext, type SettlementResult, settleFoundPayment, settlePayment } from './settle-payment.js';
export { type PaymentStartContext, paymentStarted } from './start-context.js';
export { startPayment } from './start-payment.js';
export type { SubscriptionPurchaseRule } from './subscription-purchase-rule.js';
