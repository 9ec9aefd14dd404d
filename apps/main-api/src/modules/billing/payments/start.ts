import type { Payment } from '@platform/db';
import type { AuditContext, AuditedChange } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { InvoiceIssuer } from './hooks.js';
import type { PayIntent } from './pay-request.js';
import type { PaymentProviders } from './provider-port.js';
import type { StartedBy } from './repository.js';
import type { SettlementContext } from './settle.js';

// What starting a payment takes (the pay route's dependencies, who asks, what for) and how the audit log records it:
// shared by each way of starting one (service.ts for the providers, bank-transfer.ts for bank transfers).

export interface PaymentStartDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
  /** Issues the invoice of a bank transfer, in the transaction that records it. */
  invoices: InvoiceIssuer;
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
export interface Start {
  deps: PaymentStartDeps;
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
