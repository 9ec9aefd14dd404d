// What the app uses of billing: its settings (read by config.ts), the routes of every billing sub-module
// (registered together, with the provider adapters the configuration picks) and their shared schemas, and the
// hook tests use to stand in for provider time limits, what retiring an organization does to its billing, and what
// the dashboard's Home reads: the subscription and how many invoices are unpaid.

export { type PaymentsConfig, PaymentsEnvSchema, paymentsConfigFrom } from './config.js';
export { unpaidInvoiceCount } from './invoices/index.js';
export type { ProviderTimeout } from './providers/index.js';
export {
  alarmRefundsDueAtRetirement,
  type BillingRetirement,
  endBillingOfRetiredOrganization,
  hasBillingHistory,
} from './retirement.js';
export { billingRoutes, billingSharedSchemas } from './routes.js';
export { subscriptionViewOf } from './subscriptions/index.js';
