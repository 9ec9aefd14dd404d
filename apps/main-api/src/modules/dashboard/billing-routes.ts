import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { dashboardBillingDocumentRoutes } from './billing-documents-routes.js';
import type { DashboardBillingOptions } from './billing-forms.js';
import { dashboardBillingMethodRoutes } from './billing-methods-routes.js';
import { dashboardBillingPaymentRoutes } from './billing-payments-routes.js';
import { dashboardBillingSubscriptionRoutes } from './billing-subscription-routes.js';
import { dashboardBillingWalletRoutes } from './billing-wallet-routes.js';

// The Billing pages (docs/decisions.md#dashboard-pages): the subscription and its plan, the wallet and its top-ups,
// the payment methods, the payment history with its CSV and each payment's receipt or invoice. Every page calls the
// services the matching `/v1/billing/*` and `/v1/organizations/:id/wallets*` routes call, with the same permissions:
// reading `organization:read`, changes `billing:write`, test top-ups `wallet:test_top_up`.

export const dashboardBillingRoutes: FastifyPluginAsyncTypebox<DashboardBillingOptions> = async (app, options) => {
  await app.register(dashboardBillingSubscriptionRoutes, options);
  await app.register(dashboardBillingWalletRoutes, options);
  await app.register(dashboardBillingMethodRoutes, options);
  await app.register(dashboardBillingPaymentRoutes, options);
  await app.register(dashboardBillingDocumentRoutes, options);
};
