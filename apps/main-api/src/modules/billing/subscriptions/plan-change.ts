import type { MailSubscription, MailSubscriptionChangeKind } from '@platform/db';
import { conflict, validationError } from '@platform/errors';
import { isSameSubscription, type Proration, prorate, type SubscriptionTerms } from '@platform/pricing';
import { type BillingPeriod, billingPeriod, currentPeriodOf, dayOf } from './periods.js';

export const NO_ACTIVE_SUBSCRIPTION =
  'The organization has no active mail subscription; buy one with POST /v1/billing/pay';
const PERIOD_ENDED = 'The current billing period has ended and the subscription is being renewed; try again shortly';
const NOTHING_TO_CHANGE = 'Nothing would change: the subscription already has this plan, seat count and billing cycle';

/** A change of plan, seats or cycle as it would happen today: what it costs and the period it leads to. */
export interface PlannedChange {
  kind: Exclude<MailSubscriptionChangeKind, 'renewal'>;
  current: SubscriptionTerms;
  next: SubscriptionTerms;
  /** The prorated price of the change (negative: a credit). */
  net: number;
  /** What the card pays today: max(0, net - credit balance). */
  amountDueToday: number;
  /** What the credit balance pays (net > 0). */
  creditApplied: number;
  /** What the credit balance gains (net < 0). */
  creditAdded: number;
  /** The period after the change: the same one, or a new one from today when the cycle changes. */
  period: BillingPeriod;
  proration: Proration;
}

/**
 * Prices a change of the subscription made on `now`'s UTC day (docs/decisions.md#proration): the preview and the
 * upgrade both call this with the same stored state and the same day, so they agree to the shilling. Throws 409
 * when there is no active subscription (none, past_due, canceled, expired, or its period is over) and 400
 * when nothing would change.
 */
export function planChange(
  subscription: MailSubscription | undefined,
  next: SubscriptionTerms,
  now: Date,
): PlannedChange {
  if (subscription === undefined || subscription.status !== 'active') throw conflict(NO_ACTIVE_SUBSCRIPTION);
  const today = dayOf(now);
  const periodStart = dayOf(subscription.currentPeriodStart);
  const periodEnd = dayOf(subscription.currentPeriodEnd);
  if (today >= periodEnd || today < periodStart) throw conflict(PERIOD_ENDED);

  const current: SubscriptionTerms = {
    plan: subscription.plan,
    seats: subscription.seats,
    cycle: subscription.billingCycle,
  };
  if (isSameSubscription(current, next)) {
    throw validationError(NOTHING_TO_CHANGE, [
      { path: '/', message: 'is the current plan, seat count and billing cycle' },
    ]);
  }
  const proration = prorate({
    current: { ...current, periodStart, periodEnd },
    next,
    today,
    creditBalance: subscription.creditBalance,
  });
  const { net } = proration;
  return {
    kind: net > 0 ? 'upgrade' : net < 0 ? 'downgrade' : 'change',
    current,
    next,
    net,
    amountDueToday: proration.amountDueToday,
    creditApplied: net > 0 ? Math.min(subscription.creditBalance, net) : 0,
    creditAdded: net < 0 ? -net : 0,
    period: proration.cycleChanged ? billingPeriod(today, next.cycle, 0) : currentPeriodOf(subscription),
    proration,
  };
}
