import type { Database } from '@platform/db';
import type { SubscriptionTerms } from '@platform/pricing';
import { planChange } from './plan-change.js';
import { readSubscription } from './repository.js';
import type { UpgradePreview } from './schemas.js';

/**
 * GET /v1/billing/upgrade/preview (spec 4.8): what the change would cost if made now. The same planChange
 * prices the upgrade, so the two agree to the shilling on the same UTC day and the same stored state.
 */
export async function previewUpgrade(
  db: Database,
  organizationId: string,
  next: SubscriptionTerms,
  now: Date,
): Promise<UpgradePreview> {
  const subscription = await readSubscription(db, organizationId);
  const plan = planChange(subscription, next, now);
  const { proration } = plan;
  return {
    amountDueToday: plan.amountDueToday,
    kind: plan.kind,
    net: plan.net,
    creditApplied: plan.creditApplied,
    creditAdded: plan.creditAdded,
    creditBalance: subscription?.creditBalance ?? 0,
    daysInPeriod: proration.daysInPeriod,
    daysRemaining: proration.daysRemaining,
    cycleChanged: proration.cycleChanged,
    newPeriod: { start: proration.newPeriod.start, end: proration.newPeriod.end },
    newPrice: proration.nextQuote.total,
  };
}
