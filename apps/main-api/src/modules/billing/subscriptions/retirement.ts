import type { Transaction } from '@platform/db';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import { NOT_PAST_DUE } from './renewal-retries.js';
import { lockSubscription, updateSubscriptionAt } from './repository.js';
import { NO_SCHEDULED_CHANGE } from './scheduled-change.js';

/**
 * Ends the mail subscription of an organization being retired (docs/decisions.md#organization-deletion): a running
 * one (active or past_due) is canceled and leaves the renewal queue, so its saved card is never charged again.
 * A charge already under way settles as any charge for a subscription that changed meanwhile: to the credit
 * balance. Runs in the retirement's transaction; true when there was one to cancel.
 */
export async function cancelSubscriptionOfRetiredOrganization(
  tx: Transaction,
  audit: AuditContext,
  organizationId: string,
  now: Date,
): Promise<boolean> {
  const subscription = await lockSubscription(tx, organizationId);
  if (subscription === undefined || (subscription.status !== 'active' && subscription.status !== 'past_due')) {
    return false;
  }
  await updateSubscriptionAt(tx, subscription, subscription.version, {
    status: 'canceled',
    renewalDueAt: null,
    cancelAtPeriodEnd: false,
    canceledAt: subscription.canceledAt ?? now,
    endedAt: now,
    ...NOT_PAST_DUE,
    ...NO_SCHEDULED_CHANGE,
  });
  await recordAuditEvent(tx, audit, {
    organizationId,
    action: 'subscription.canceled',
    targetType: 'subscription',
    targetId: subscription.id,
    details: { from: subscription.status, to: 'canceled', reason: 'organization_retired' },
  });
  return true;
}
