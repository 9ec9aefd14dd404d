// What the rest of billing uses of mail subscriptions: the routes and their schemas, the hooks a payment's
// outcome runs (passed to payments, which never import subscriptions), whether an organization may start a purchase
// (payments asks before starting one), the renewal job, the end of a retired organization's subscription, and the
// subscription as the API shows it (the dashboard's Home), and the changes the dashboard's Billing pages make.

export { cancelSubscription, resumeCanceledSubscription } from './cancel.js';
export { upgradeSubscription } from './change-plan.js';
export { previewUpgrade } from './change-plan-price.js';
export { hasCreditHistory } from './credit-balance-repository.js';
export { subscriptionPaymentHooks } from './payment-hooks.js';
export { hasActiveSubscription } from './purchase.js';
export { subscriptionPurchaseRule } from './purchase-rule.js';
export { type RenewalRound, renewDueSubscriptions } from './renew.js';
export { cancelSubscriptionOfRetiredOrganization } from './retirement.js';
export { subscriptionRoutes } from './routes.js';
export { type MailSubscriptionView, subscriptionSharedSchemas, type UpgradePreview } from './schemas.js';
export { subscriptionViewOf } from './service.js';
