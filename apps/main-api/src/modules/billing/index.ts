// What the app uses of billing: its settings (read by config.ts), the routes of every billing sub-module
// (registered together, with the provider adapters the configuration picks) and their shared schemas, and the
// hook tests use to stand in for provider time limits, and what retiring an organization does to its billing; and
// the services the dashboard's billing pages call, the same the API's billing routes call
// (docs/decisions.md#dashboard-pages), and what its Home reads: the subscription and how many invoices are unpaid.

export { type PaymentsConfig, PaymentsEnvSchema, paymentsConfigFrom } from './config.js';
export { type BillingDocument, DOCUMENT_PAGE_CSP, renderDocumentHtml, renderDocumentPdf } from './documents/index.js';
export { paymentInvoice, unpaidInvoiceCount } from './invoices/index.js';
export {
  listPaymentMethods,
  PAYMENT_METHOD_NOT_FOUND,
  type PaymentMethodView,
  removePaymentMethod,
} from './payment-methods/index.js';
export {
  invoicePageOf,
  listPayments,
  type PaymentFilter,
  type PaymentView,
  paymentExport,
  paymentsCsv,
  receiptPageOf,
  startPayment,
} from './payments/index.js';
export { cardCheckoutOrigin, type ProviderTimeout } from './providers/index.js';
export { paymentReceipt } from './receipts/index.js';
export {
  alarmRefundsDueAtRetirement,
  type BillingRetirement,
  endBillingOfRetiredOrganization,
  hasBillingHistory,
} from './retirement.js';
export { billingRoutes, billingSharedSchemas } from './routes.js';
export { type BillingServices, createBillingServices } from './services.js';
export {
  cancelSubscription,
  type MailSubscriptionView,
  previewUpgrade,
  resumeCanceledSubscription,
  subscriptionViewOf,
  type UpgradePreview,
  upgradeSubscription,
} from './subscriptions/index.js';
