import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type PeriodicJob, startPeriodicJob } from '@platform/http';
import { idempotency } from '@platform/idempotency';
import { bankTransferSharedSchemas, expireBankTransfers, financeRoutes } from './bank-transfers/index.js';
import { invoiceRoutes } from './invoices/index.js';
import { paymentMethodRoutes, paymentMethodSharedSchemas } from './payment-methods/index.js';
import {
  checkoutCompleteRoutes,
  missingReceiptRounds,
  paymentRoutes,
  paymentSharedSchemas,
  reconcilePayments,
} from './payments/index.js';
import { mpesaCallbackRoutes, paystackWebhookRoutes, sandboxCheckoutRoutes } from './providers/index.js';
import { receiptRoutes } from './receipts/index.js';
import { refundRoutes, refundSharedSchemas } from './refunds/index.js';
import type { BillingServices } from './services.js';
import { renewDueSubscriptions, subscriptionRoutes, subscriptionSharedSchemas } from './subscriptions/index.js';

export interface BillingRoutesOptions {
  /** What the routes start and settle payments with, built once for the app (services.ts). */
  services: BillingServices;
  /** Public base URL of this service (sandbox checkout URLs). */
  publicUrl: string;
  /** Largest webhook body. */
  bodyLimit: number;
  /** How often this instance purges expired idempotency records (IDEMPOTENCY_PURGE_INTERVAL_MS); 0: never. */
  idempotencyPurgeIntervalMs: number;
  /** The dashboard's payment history, which the page after a checkout links to; absent while the dashboard is off. */
  dashboardPaymentsPath?: string | undefined;
}

/** Schemas the billing routes refer to by `$id`, registered once on the app. */
export const billingSharedSchemas = [
  ...paymentSharedSchemas,
  ...paymentMethodSharedSchemas,
  ...subscriptionSharedSchemas,
  ...bankTransferSharedSchemas,
  ...refundSharedSchemas,
];

/**
 * Payments and mail subscriptions: the client routes (behind the organization guard and idempotency keys),
 * the providers' callbacks (Paystack's webhook, M-Pesa's callback) or the sandbox checkout standing in for
 * them, the finance staff's bank transfer routes, and the reconciliation, renewal and bank transfer expiry jobs.
 */
export const billingRoutes: FastifyPluginAsyncTypebox<BillingRoutesOptions> = async (app, options) => {
  const { services } = options;
  const { ctx, providers, config, invoices } = services;
  const { db, now, log } = ctx;
  if (providers.card.name === 'sandbox' || providers.mobileMoney.name === 'sandbox') {
    // Info, not a warning: the local start runs on the sandbox by design (production logs at info).
    log.info(
      { card: providers.card.name, mobileMoney: providers.mobileMoney.name },
      'Payments use the sandbox provider where no credentials are configured: no real money moves there',
    );
  }

  await app.register(async (clientRoutes) => {
    await clientRoutes.register(idempotency, {
      db,
      now,
      scopeOf: (request) => `user:${request.user.id}:organization:${request.organization.id}`,
      onReplay: () => app.metrics.idempotentReplays.inc(),
      purge: options.idempotencyPurgeIntervalMs > 0 ? { intervalMs: options.idempotencyPurgeIntervalMs } : false,
    });
    await clientRoutes.register(paymentRoutes, services);
    await clientRoutes.register(receiptRoutes, { db });
    await clientRoutes.register(invoiceRoutes, { db, now });
    await clientRoutes.register(paymentMethodRoutes, { db, now });
    await clientRoutes.register(subscriptionRoutes, { ctx, providers, config });
  });

  if (config.card.kind === 'paystack') {
    await app.register(paystackWebhookRoutes, { ctx, secretKey: config.card.secretKey, bodyLimit: options.bodyLimit });
  } else {
    await app.register(sandboxCheckoutRoutes, {
      ctx,
      publicUrl: options.publicUrl,
      returnUrl: config.returnUrl,
      ...(config.card.formSecret === undefined ? {} : { formSecret: config.card.formSecret }),
    });
  }
  if (config.mobileMoney.kind === 'daraja') {
    await app.register(mpesaCallbackRoutes, { ctx, callbackToken: config.mobileMoney.callbackToken });
  }
  await app.register(checkoutCompleteRoutes, { db, dashboardPaymentsPath: options.dashboardPaymentsPath });
  await app.register(financeRoutes, { ctx });
  await app.register(refundRoutes, { db });

  // Each job runs in every instance whose interval is above 0; instances share the work (FOR UPDATE SKIP LOCKED).
  const jobs: PeriodicJob<unknown>[] = [];
  const runEvery = (name: string, intervalMs: number, run: () => Promise<unknown>) => {
    if (intervalMs <= 0) return;
    app.addHook('onReady', async () => {
      jobs.push(startPeriodicJob({ name, intervalMs, run, logger: ctx.log }));
    });
  };
  runEvery('Payment reconciliation round', config.reconciliation.intervalMs, () =>
    reconcilePayments({ ctx, providers, config }),
  );
  // Beside reconciliation and as often: the receipts of payments that succeeded before receipts existed.
  runEvery('Receipts for earlier payments round', config.reconciliation.intervalMs, missingReceiptRounds({ ctx }));
  runEvery('Mail subscription renewal round', config.renewalIntervalMs, () =>
    renewDueSubscriptions({ ctx, providers, config, invoices }),
  );
  runEvery('Bank transfer expiry round', config.bankTransfer.expiryIntervalMs, () => expireBankTransfers({ ctx }));
  app.addHook('onClose', async () => {
    await Promise.all(jobs.map((job) => job.stop()));
    await providers.close();
  });
};
