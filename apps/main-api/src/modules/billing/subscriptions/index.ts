// What the rest of billing uses of mail subscriptions: the routes and their schemas, the hooks a payment's
// outcome runs (passed to payments, which never import subscriptions), and the renewal job.
export { subscriptionPaymentHooks } from './payment-hooks.js';
export { type RenewalRound, renewDueSubscriptions } from './renewal-job.js';
export { subscriptionRoutes } from './routes.js';
export { subscriptionSharedSchemas } from './schemas.js';
