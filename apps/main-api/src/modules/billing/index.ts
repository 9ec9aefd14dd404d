// What the app uses of billing: its settings (read by config.ts), the routes of every billing sub-module
// (registered together, with the provider adapters the configuration picks) and their shared schemas, and the
// hook tests use to stand in for provider time limits, and the end of a retired organization's subscription.

export { type PaymentsConfig, PaymentsEnvSchema, paymentsConfigFrom } from './config.js';
export type { ProviderTimeout } from './providers/index.js';
export { billingRoutes, billingSharedSchemas } from './routes.js';
export { cancelSubscriptionOfRetiredOrganization } from './subscriptions/index.js';
