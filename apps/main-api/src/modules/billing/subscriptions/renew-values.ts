import type { MailSubscription, NewMailSubscriptionChange } from '@platform/db';
import { quote } from '@platform/pricing';
import { periodAfter } from './periods.js';
import { renewalTermsOf, scheduledTermsOf } from './scheduled-change.js';

/** The next period, at the scheduled change's terms or the current ones, paid from the credit balance first. */
export function renewalValues(
  subscription: MailSubscription,
): Omit<NewMailSubscriptionChange, 'status' | 'baseVersion'> & { amountDue: number } {
  const terms = renewalTermsOf(subscription);
  const period = periodAfter(subscription, terms.cycle);
  const { total } = quote(terms);
  const creditApplied = Math.min(subscription.creditBalance, total);
  return {
    subscriptionId: subscription.id,
    organizationId: subscription.organizationId,
    kind: 'renewal',
    fromPlan: subscription.plan,
    fromSeats: subscription.seats,
    fromBillingCycle: subscription.billingCycle,
    plan: terms.plan,
    seats: terms.seats,
    billingCycle: terms.cycle,
    billingAnchor: period.anchor,
    periodIndex: period.index,
    periodStart: period.start,
    periodEnd: period.end,
    net: total,
    creditApplied,
    amountDue: total - creditApplied,
    // A scheduled change is the renewal of the member who asked for it.
    requestedByUserId: scheduledTermsOf(subscription) === undefined ? null : subscription.scheduledByUserId,
  };
}
