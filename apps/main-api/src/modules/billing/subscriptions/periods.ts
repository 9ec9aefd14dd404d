import type { BillingCycle, MailSubscription } from '@platform/db';
import { addBillingPeriod } from '@platform/pricing';

/** The UTC calendar day of a moment, `YYYY-MM-DD`: proration and periods count whole UTC days. */
export function dayOf(moment: Date): string {
  return moment.toISOString().slice(0, 10);
}

/** Midnight UTC at the start of `day`. */
function startOfDay(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** A billing period: the n-th (`index`, from 0) counted from `anchor`, as whole UTC days [start, end). */
export interface BillingPeriod {
  anchor: string;
  index: number;
  start: Date;
  end: Date;
}

/**
 * Period `index` of a subscription anchored on `anchor`. Every end is counted from the anchor, never chained
 * from the previous end, so a subscription started on 31 January renews on 29 February and then 31 March.
 */
export function billingPeriod(anchor: string, cycle: BillingCycle, index: number): BillingPeriod {
  return {
    anchor,
    index,
    start: startOfDay(addBillingPeriod(anchor, cycle, index)),
    end: startOfDay(addBillingPeriod(anchor, cycle, index + 1)),
  };
}

/** Where the subscription's periods are counted from (rows older than the anchor column: their start day). */
function anchorOf(subscription: MailSubscription): string {
  return subscription.billingAnchor ?? dayOf(subscription.currentPeriodStart);
}

/** The subscription's current period, as stored. */
export function currentPeriodOf(subscription: MailSubscription): BillingPeriod {
  return {
    anchor: anchorOf(subscription),
    index: subscription.periodIndex,
    start: subscription.currentPeriodStart,
    end: subscription.currentPeriodEnd,
  };
}

/**
 * The period a renewal pays for, on `cycle`: the one after the current one, or, when a scheduled change moves to
 * another cycle, the first period of that cycle, anchored on the day the current one ends
 * (docs/decisions.md#scheduled-downgrades).
 */
export function periodAfter(subscription: MailSubscription, cycle: BillingCycle): BillingPeriod {
  if (cycle !== subscription.billingCycle) return billingPeriod(dayOf(subscription.currentPeriodEnd), cycle, 0);
  return billingPeriod(anchorOf(subscription), cycle, subscription.periodIndex + 1);
}
