import type { MailSubscription } from '@platform/db';
import { quote } from '@platform/pricing';
import { scheduledTermsOf } from './scheduled-change.js';
import type { MailSubscriptionView } from './schemas.js';

export function toSubscriptionView(subscription: MailSubscription, changeInProgress: boolean): MailSubscriptionView {
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
