import type { Payment } from '@platform/db';
import type { AuditContext, AuditedChange } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { InvoiceIssuer } from './invoice-issuer.js';
import type { PayIntent } from './pay-request.js';
import type { PaymentProviders } from './provider-port.js';
import type { StartedBy } from './repository.js';
import type { SettlementContext } from './settle-payment.js';
import type { SubscriptionPurchaseRule } from './subscription-purchase-rule.js';

// What starting a payment works with (the pay route's collaborators), who asks, what for, and how the audit log
// records it: shared by each way of starting one (start-payment.ts for the providers, start-bank-transfer.ts for bank
// transfers).

/**
 * What the pay route starts payments with: the settlement context (a payment settled at once, a saved card's charge,
 * is settled in it), the providers, the settings, and the ports of the modules a start asks or tells.
 */
export interface PaymentStartContext {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
  /** Issues the invoice of a bank transfer, in the transaction that records it. */
  invoices: InvoiceIssuer;
  /** Whether the organization may buy a mail subscription now: subscriptions decide. */
  subscriptionPurchases: SubscriptionPurchaseRule;
}

export interface PaymentRequester {
  organizationId: string;
  userId: string;
  /** The idempotent request starting the payment, when it carries a key: remembered on the payment. */
  startedBy?: StartedBy;
  /** Who starts it, from which request, for the audit log. */
  audit: AuditContext;
}

/** A payment about to start: checked, priced, with the payer's email for the provider. */
export interface PaymentToStart {
  context: PaymentStartContext;
  requester: PaymentRequester;
  intent: PayIntent;
  amount: number;
  email: string;
}

/** A payment's start as the audit log records it: what it is for, how much, how (never a card or a number). */
export function paymentStarted(payment: Payment): AuditedChange {
  return {
    organizationId: payment.organizationId,
    action: 'payment.started',
    targetType: 'payment',
    targetId: payment.reference,
    details: {
      amount: payment.amount,
      currency: payment.currency,
      purpose: payment.purpose,
      method: payment.method,
      channel: payment.channel,
      provider: payment.provider,
      ...(payment.plan === null
        ? {}
        : { plan: payment.plan, seats: payment.seats, billingCycle: payment.billingCycle }),
    },
  };
}
