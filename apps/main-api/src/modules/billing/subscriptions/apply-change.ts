import type { MailSubscription, MailSubscriptionChange, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import { useCredit } from './credit-balance.js';
import { subscriptionChanged, subscriptionRenewed } from './notifications.js';
import { NOT_PAST_DUE } from './renew-retries.js';
import { updateSubscriptionAt } from './repository.js';
import { NO_SCHEDULED_CHANGE } from './scheduled-change.js';

export interface ApplyChangeOptions {
  /** The saved card that paid, which renewals charge from now on. */
  paidWithCardId?: string | null;
  /** The payment that paid the card part, named in the notification. */
  paymentReference?: string;
  /** The payment was a bank transfer (a renewal invoice), not a card charge. */
  byTransfer?: boolean;
}

/**
 * Applies a recorded change or renewal to the subscription, but only if the subscription is still at the
 * change's base version: the terms and period of the change, status active, the next renewal at the end of
 * the period, no longer past_due, and no change scheduled any more (a renewal applied it; a change made now replaces
 * it: docs/decisions.md#scheduled-downgrades). The cancel flag stays as it is. In the same transaction the credit
 * the change uses moves (a change applied now never earns credit: downgrades wait for the renewal) and the organization's
 * members are notified, and the audit log records it under `audit` (the member who asked, or PLATFORM_JOB for a
 * renewal or a charge that settled later). False when the subscription changed since the change was decided:
 * nothing is done.
 */
export async function applyChange(
  tx: Transaction,
  subscription: MailSubscription,
  change: MailSubscriptionChange,
  audit: AuditContext,
  options: ApplyChangeOptions = {},
): Promise<boolean> {
  const updated = await updateSubscriptionAt(tx, subscription, change.baseVersion, {
    plan: change.plan,
    seats: change.seats,
    billingCycle: change.billingCycle,
    status: 'active',
    currentPeriodStart: change.periodStart,
    currentPeriodEnd: change.periodEnd,
    billingAnchor: change.billingAnchor,
    periodIndex: change.periodIndex,
    renewalDueAt: change.periodEnd,
    ...NOT_PAST_DUE,
    ...NO_SCHEDULED_CHANGE,
    ...(options.paidWithCardId ? { paymentMethodId: options.paidWithCardId } : {}),
  });
  if (updated === undefined) return false;

  const reference = `change:${change.id}`;
  if (change.creditApplied > 0) {
    await useCredit(tx, updated, {
      amount: change.creditApplied,
      reason: change.kind === 'renewal' ? 'renewal' : 'upgrade',
      reference,
      description: change.kind === 'renewal' ? 'Paid part of a renewal' : 'Paid part of a subscription change',
    });
  }
  await recordAuditEvent(tx, audit, {
    organizationId: change.organizationId,
    action: change.kind === 'renewal' ? 'subscription.renewed' : 'subscription.changed',
    targetType: 'subscription',
    targetId: subscription.id,
    details: {
      kind: change.kind,
      before: { plan: change.fromPlan, seats: change.fromSeats, billingCycle: change.fromBillingCycle },
      after: { plan: change.plan, seats: change.seats, billingCycle: change.billingCycle },
      periodStart: change.periodStart.toISOString(),
      periodEnd: change.periodEnd.toISOString(),
      net: change.net,
      creditApplied: change.creditApplied,
      amountDue: change.amountDue,
      paymentReference: options.paymentReference ?? null,
      requestedByUserId: change.requestedByUserId,
    },
  });
  await notifyOrganizationMembers(
    tx,
    change.organizationId,
    change.kind === 'renewal'
      ? subscriptionRenewed(change, options.paymentReference, options.byTransfer)
      : subscriptionChanged(change, options.paymentReference),
  );
  return true;
}
