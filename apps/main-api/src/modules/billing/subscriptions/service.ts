import type { Database, DatabaseExecutor, MailSubscription } from '@platform/db';
import { quote } from '@platform/pricing';
import type { PaymentsConfig } from '../config.js';
import type { PaymentProviders, SettlementContext } from '../payments/index.js';
import { findChargingChange, readSubscription } from './repository.js';
import { scheduledTermsOf } from './scheduled-change.js';
import type { MailSubscriptionView } from './schemas.js';

// What the use cases share towards the routes: the subscription as the API shows it, the shape of their answers, and
// what they reach payments with. Each use case is its own file: purchase.ts, change-plan.ts (with its price in
// change-plan-price.ts), cancel.ts, renew.ts, retirement.ts; payment-hooks.ts is what payments call.

/**
 * What subscriptions reach payments with: the settlement context (database, clock, payment hooks, receipts, log), the
 * providers whose card adapter charges saved cards, and the payment settings (card limit, when an unconfirmed charge is
 * looked up). The routes get it as their options; the renewal job adds the invoice issuer.
 */
export interface PaymentsAccess {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
}

/**
 * GET /v1/billing/subscription: the organization's subscription as the API shows it, with whether a change or
 * renewal is being charged right now; null when the organization never had one
 * (docs/decisions.md#no-subscription-answers-null).
 */
export async function subscriptionViewOf(db: Database, organizationId: string): Promise<MailSubscriptionView | null> {
  const subscription = await readSubscription(db, organizationId);
  if (subscription === undefined) return null;
  return viewOf(db, subscription);
}

/** The subscription as GET /v1/billing/subscription shows it, read in the caller's transaction. */
export async function viewOf(db: DatabaseExecutor, subscription: MailSubscription): Promise<MailSubscriptionView> {
  const changeInProgress = (await findChargingChange(db, subscription.id)) !== undefined;
  return toSubscriptionView(subscription, changeInProgress);
}

/** What the cancel and resume routes answer: the subscription as GET /v1/billing/subscription shows it, and why. */
export interface SubscriptionAnswer {
  message: string;
  data: MailSubscriptionView;
}

/** An answer's message: what the members are told, as one sentence. */
export function messageOf(content: { title: string; message: string }): string {
  return `${content.title}. ${content.message}`;
}

function toSubscriptionView(subscription: MailSubscription, changeInProgress: boolean): MailSubscriptionView {
  const price = quote({ plan: subscription.plan, seats: subscription.seats, cycle: subscription.billingCycle });
  const scheduled = scheduledTermsOf(subscription);
  return {
    plan: subscription.plan,
    seats: subscription.seats,
    billingCycle: subscription.billingCycle,
    status: subscription.status,
    currentPeriodStart: subscription.currentPeriodStart.toISOString(),
    currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    // A subscription set to cancel is still taken up by the renewal job, but to end it, not to renew it.
    renewsAt: subscription.cancelAtPeriodEnd ? null : (subscription.renewalDueAt?.toISOString() ?? null),
    cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
    canceledAt: subscription.canceledAt?.toISOString() ?? null,
    endedAt: subscription.endedAt?.toISOString() ?? null,
    scheduledChange:
      scheduled === undefined
        ? null
        : {
            plan: scheduled.plan,
            seats: scheduled.seats,
            billingCycle: scheduled.cycle,
            effectiveAt: subscription.currentPeriodEnd.toISOString(),
            price: quote(scheduled).total,
            requestedAt: (subscription.scheduledAt ?? subscription.currentPeriodStart).toISOString(),
          },
    price: {
      tier: price.tier.label,
      pricePerSeatMonthly: price.pricePerSeatMonthly,
      monthlyTotal: price.monthlyTotal,
      total: price.total,
    },
    creditBalance: subscription.creditBalance,
    paymentMethodId: subscription.paymentMethodId,
    changeInProgress,
  };
}
