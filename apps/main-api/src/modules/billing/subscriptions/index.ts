// What the rest of billing uses of mail subscriptions: the routes and their schemas, the hooks a payment's
// outcome runs and the rule a purchase is asked against (passed to payments, which never import subscriptions), the
// renewal job, and the end of a retired organization's subscription.
export { subscriptionPaymentHooks } from './payment-hooks.js';
export { subscriptionPurchaseRule } from './purchase-rule.js';
export { type RenewalRound, renewDueSubscriptions } from './renewal-job.js';
export { cancelSubscriptionOfRetiredOrganization } from './retirement.js';
export { subscriptionRoutes } from './routes.js';
export { subscriptionSharedSchemas } from './schemas.js';
