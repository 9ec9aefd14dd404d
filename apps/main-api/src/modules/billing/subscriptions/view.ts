import type { MailSubscription } from '@platform/db';
import { quote } from '@platform/pricing';
import type { MailSubscriptionView } from './schemas.js';

export function toSubscriptionView(subscription: MailSubscription, changeInProgress: boolean): MailSubscriptionView {
  const price = quote({ plan: subscription.plan, seats: subscription.seats, cycle: subscription.billingCycle });
  return {
    plan: subscription.plan,
    seats: subscription.seats,
    billingCycle: subscription.billingCycle,
    status: subscription.status,
    currentPeriodStart: subscription.currentPeriodStart.toISOString(),
    currentPeriodEnd: subscription.currentPeriodEnd.toISOString(),
    renewsAt: subscription.renewalDueAt?.toISOString() ?? null,
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
