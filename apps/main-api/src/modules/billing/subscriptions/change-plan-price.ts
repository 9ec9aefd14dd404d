import type { Database, MailSubscription, MailSubscriptionChangeKind } from '@platform/db';
import { conflict, validationError } from '@platform/errors';
import { isSameSubscription, type Proration, prorate, type SubscriptionTerms } from '@platform/pricing';
import { type BillingPeriod, billingPeriod, currentPeriodOf, dayOf, periodAfter } from './periods.js';
import { readSubscription } from './repository.js';
import { scheduledTermsOf } from './scheduled-change.js';
import type { UpgradePreview } from './schemas.js';

// What a change of plan, seats or cycle costs and when it takes effect: the preview answers it, and the upgrade
// (change-plan.ts) charges what the same function says (docs/decisions.md#preview-and-upgrade-agree).

export const NO_ACTIVE_SUBSCRIPTION =
  'The organization has no active mail subscription; buy one with POST /v1/billing/pay';
const PERIOD_ENDED = 'The current billing period has ended and the subscription is being renewed; try again shortly';
const NOTHING_TO_CHANGE = 'Nothing would change: the subscription already has this plan, seat count and billing cycle';

/** A change of plan, seats or cycle as it would happen if asked for today: what it costs, when and what period it leads to. */
export interface PricedChange {
  kind: Exclude<MailSubscriptionChangeKind, 'renewal'>;
  /**
   * `now` for an upgrade or a change of the same price (today's proration and credit rules); `period_end` for a
   * downgrade, which the renewal applies at the end of the current period (docs/decisions.md#scheduled-downgrades).
   */
  takesEffect: 'now' | 'period_end';
  /**
   * A change is scheduled and this drops it: asking for the current terms cancels it (and changes nothing else), a
   * change made now or another downgrade replaces it.
   */
  cancelsScheduledChange: boolean;
  current: SubscriptionTerms;
  next: SubscriptionTerms;
  /** The prorated price of a change made now; 0 for a downgrade, which earns no credit (it waits for the period end). */
  net: number;
  /** What the card pays today: max(0, net - credit balance). */
  amountDueToday: number;
  /** What the credit balance pays (net > 0). */
  creditApplied: number;
  /**
   * The period the new terms start with: the current one, a new one from today when the cycle changes now, or the
   * period after the current one for a downgrade.
   */
  period: BillingPeriod;
  proration: Proration;
}

/**
 * Prices a change of the subscription asked for on `now`'s UTC day (docs/decisions.md#proration): the preview and
 * the upgrade both call this with the same stored state and the same day, so they agree to the shilling, and on
 * whether it applies now or at the period end. A change priced lower than the current terms (a negative prorated
 * net) is a downgrade: it is scheduled for the period end and costs and credits nothing now. Throws 409 when there
 * is no active subscription (none, past_due, canceled, expired, or its period is over) and 400 when nothing would
 * change (the current terms, with no change scheduled).
 */
export function priceChange(
  subscription: MailSubscription | undefined,
  next: SubscriptionTerms,
  now: Date,
): PricedChange {
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
  const unchanged = isSameSubscription(current, next);
  const scheduled = scheduledTermsOf(subscription);
  if (unchanged && scheduled === undefined) {
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
  const cancelsScheduledChange = scheduled !== undefined && !isSameSubscription(scheduled, next);
  const atNoCost = { net: 0, amountDueToday: 0, creditApplied: 0 };
  if (unchanged) {
    const period = currentPeriodOf(subscription);
    return {
      kind: 'change',
      takesEffect: 'now',
      cancelsScheduledChange,
      current,
      next,
      ...atNoCost,
      period,
      proration,
    };
  }
  const { net } = proration;
  if (net < 0) {
    const period = periodAfter(subscription, next.cycle);
    return {
      kind: 'downgrade',
      takesEffect: 'period_end',
      cancelsScheduledChange,
      current,
      next,
      ...atNoCost,
      period,
      proration,
    };
  }
  return {
    kind: net > 0 ? 'upgrade' : 'change',
    takesEffect: 'now',
    cancelsScheduledChange,
    current,
    next,
    net,
    amountDueToday: proration.amountDueToday,
    creditApplied: net > 0 ? Math.min(subscription.creditBalance, net) : 0,
    period: proration.cycleChanged ? billingPeriod(today, next.cycle, 0) : currentPeriodOf(subscription),
    proration,
  };
}

/**
 * GET /v1/billing/upgrade/preview (spec 4.8): what the change would cost if made now. The same priceChange
 * prices the upgrade, so the two agree to the shilling on the same UTC day and the same stored state.
 */
export async function previewUpgrade(
  db: Database,
  organizationId: string,
  next: SubscriptionTerms,
  now: Date,
): Promise<UpgradePreview> {
  const subscription = await readSubscription(db, organizationId);
  const plan = priceChange(subscription, next, now);
  const { proration } = plan;
  return {
    amountDueToday: plan.amountDueToday,
    kind: plan.kind,
    takesEffect: plan.takesEffect,
    cancelsScheduledChange: plan.cancelsScheduledChange,
    net: plan.net,
    creditApplied: plan.creditApplied,
    creditAdded: 0,
    creditBalance: subscription?.creditBalance ?? 0,
    daysInPeriod: proration.daysInPeriod,
    daysRemaining: proration.daysRemaining,
    cycleChanged: proration.cycleChanged,
    newPeriod: { start: dayOf(plan.period.start), end: dayOf(plan.period.end) },
    newPrice: proration.nextQuote.total,
  };
}
