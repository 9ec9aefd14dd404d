import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BillingServices } from '../billing/index.js';
import { dashboardBillingDocumentRoutes } from './billing-documents-routes.js';
import { dashboardBillingWalletRoutes } from './billing-wallet-routes.js';

// The Billing pages (docs/decisions.md#dashboard-pages): the subscription and its plan, the wallet and its top-ups,
// the payment methods, the payment history with its CSV and each payment's receipt or invoice. Every page calls the
// services the matching `/v1/billing/*` and `/v1/organizations/:id/wallets*` routes call, with the same permissions:
// reading `organization:read`, changes `billing:write`, test top-ups `wallet:test_top_up`.

export interface DashboardBillingOptions {
  db: Database;
  now: () => Date;
  /** The billing services the API's billing routes run with: the same providers and settlement context. */
  billing: BillingServices;
  /** Whole KES a test wallet created on first use starts with. */
  testWalletCredit: number;
  /** The origin of the card checkout a payment form sends the browser to. */
  cardCheckoutOrigin: string;
  /** The page guard of the dashboard (page-access.ts). */
  guard: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
}

export const dashboardBillingRoutes: FastifyPluginAsyncTypebox<DashboardBillingOptions> = async (app, options) => {
  await app.register(dashboardBillingWalletRoutes, options);
  await app.register(dashboardBillingDocumentRoutes, options);
};
