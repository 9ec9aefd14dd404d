import type { Database } from '@platform/db';
import type { PlatformMetrics } from '@platform/http';
import type { PaymentsConfig } from './config.js';
import { invoiceIssuer } from './invoices/index.js';
import {
  type PaymentHooks,
  type PaymentLog,
  type PaymentStartContext,
  paymentAlarmsIn,
  type SettlementContext,
} from './payments/index.js';
import {
  type ConfiguredProviders,
  createPaymentProviders,
  type ProviderTimeout,
  processStkCallback,
} from './providers/index.js';
import { receiptIssuer } from './receipts/index.js';
import { subscriptionPaymentHooks, subscriptionPurchaseRule } from './subscriptions/index.js';

// What billing's use cases run with, built once per app: the settlement context, the provider adapters the
// configuration picks, the invoice issuer and the purchase rule. The API's billing routes and the dashboard's billing
// pages get the same one, so a page starts a payment exactly as its API route does (docs/decisions.md#dashboard-pages).

export interface BillingServicesOptions {
  db: Database;
  now: () => Date;
  config: PaymentsConfig;
  /** Public base URL of this service (sandbox checkout and M-Pesa callback URLs). */
  publicUrl: string;
  log: PaymentLog;
  metrics: PlatformMetrics;
  /** What a payment's outcome does in other modules; by default the mail subscription hooks. */
  hooks?: PaymentHooks;
  /** Starts each provider request's time limit (AbortSignal.timeout by default). */
  providerTimeout?: ProviderTimeout;
}

/** What `POST /v1/billing/pay` starts payments with, plus the providers' close. */
export interface BillingServices extends PaymentStartContext {
  providers: ConfiguredProviders;
}

export function createBillingServices(options: BillingServicesOptions): BillingServices {
  const { db, now, config, log } = options;
  const ctx: SettlementContext = {
    db,
    now,
    hooks: options.hooks ?? subscriptionPaymentHooks,
    receipts: receiptIssuer(config.seller),
    log,
    alarms: paymentAlarmsIn(options.metrics),
  };
  const providers = createPaymentProviders(config, {
    publicUrl: options.publicUrl,
    now,
    log,
    ...(options.providerTimeout === undefined ? {} : { providerTimeout: options.providerTimeout }),
    deliverSandboxStkCallback: (body) => processStkCallback(ctx, 'sandbox', body, 'sandbox_callback'),
  });
  // What a bank transfer, started by a member or by the renewal job, is invoiced with.
  const invoices = invoiceIssuer(config.seller, config.bankTransfer.account);
  return { ctx, providers, config, invoices, subscriptionPurchases: subscriptionPurchaseRule };
}
