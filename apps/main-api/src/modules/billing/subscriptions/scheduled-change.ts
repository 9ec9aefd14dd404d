import type { MailSubscription, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { quote, type SubscriptionTerms } from '@platform/pricing';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import { changeScheduled, scheduledChangeCanceled } from './notifications.js';
import { dayOf } from './periods.js';
import { updateSubscriptionAt } from './repository.js';

// A downgrade asked for during a period takes effect at its end: it is kept on the subscription row and the renewal
// applies it, at the new price (docs/decisions.md#scheduled-downgrades). Upgrades still apply at once.

/** The values that leave a subscription with no scheduled change: set by every change that applies. */
export const NO_SCHEDULED_CHANGE = {
  scheduledPlan: null,
  scheduledSeats: null,
  scheduledBillingCycle: null,
  scheduledAt: null,
  scheduledByUserId: null,
} as const;

/** The terms the scheduled change moves to; undefined when none is scheduled. */
export function scheduledTermsOf(subscription: MailSubscription): SubscriptionTerms | undefined {
  const { scheduledPlan, scheduledSeats, scheduledBillingCycle } = subscription;
  if (scheduledPlan === null || scheduledSeats === null || scheduledBillingCycle === null) return undefined;
  return { plan: scheduledPlan, seats: scheduledSeats, cycle: scheduledBillingCycle };
}

/** The terms the next renewal is at: the scheduled change's, or the subscription's own. */
export function renewalTermsOf(subscription: MailSubscription): SubscriptionTerms {
  return (
    scheduledTermsOf(subscription) ?? {
      plan: subscription.plan,
      seats: subscription.seats,
      cycle: subscription.billingCycle,
    }
  );
}

interface Requester {
  userId: string;
  audit: AuditContext;
}

const asColumns = (terms: SubscriptionTerms) => ({ plan: terms.plan, seats: terms.seats, billingCycle: terms.cycle });

/**
 * Schedules `next` for the end of the current period, replacing any change scheduled before; members are notified
 * and the audit log records it. Asking again for the change already scheduled changes and records nothing. Runs with
 * the subscription row locked and no change being charged.
 */
export async function scheduleChange(
  tx: Transaction,
  subscription: MailSubscription,
  next: SubscriptionTerms,
  requester: Requester,
  now: Date,
): Promise<MailSubscription> {
  const scheduled = scheduledTermsOf(subscription);
  if (
    scheduled !== undefined &&
    scheduled.plan === next.plan &&
    scheduled.seats === next.seats &&
    scheduled.cycle === next.cycle
  ) {
    return subscription;
  }
  const updated = await updateSubscriptionAt(tx, subscription, subscription.version, {
    scheduledPlan: next.plan,
    scheduledSeats: next.seats,
    scheduledBillingCycle: next.cycle,
    scheduledAt: now,
    scheduledByUserId: requester.userId,
  });
  if (updated === undefined) throw new Error('A locked subscription changed under its lock');
  const price = quote(next).total;
  await recordAuditEvent(tx, requester.audit, {
    organizationId: subscription.organizationId,
    action: 'subscription.change_scheduled',
    targetType: 'subscription',
    targetId: subscription.id,
    details: {
      before: asColumns({ plan: subscription.plan, seats: subscription.seats, cycle: subscription.billingCycle }),
      after: asColumns(next),
      effectiveAt: subscription.currentPeriodEnd.toISOString(),
      price,
      replaced: scheduled === undefined ? null : asColumns(scheduled),
    },
  });
  await notifyOrganizationMembers(tx, subscription.organizationId, changeScheduled(updated, asColumns(next), price));
  return updated;
}

/**
 * Drops the scheduled change (asked for by requesting the current terms again): the subscription renews as it is.
 * Runs with the subscription row locked and no change being charged.
 */
export async function cancelScheduledChange(
  tx: Transaction,
  subscription: MailSubscription,
  requester: Requester,
): Promise<MailSubscription> {
  const scheduled = scheduledTermsOf(subscription);
  if (scheduled === undefined) return subscription;
  const updated = await updateSubscriptionAt(tx, subscription, subscription.version, NO_SCHEDULED_CHANGE);
  if (updated === undefined) throw new Error('A locked subscription changed under its lock');
  await recordAuditEvent(tx, requester.audit, {
    organizationId: subscription.organizationId,
    action: 'subscription.scheduled_change_canceled',
    targetType: 'subscription',
    targetId: subscription.id,
    details: {
      canceled: asColumns(scheduled),
      scheduledAt: subscription.scheduledAt?.toISOString() ?? null,
      renewsOn: dayOf(subscription.currentPeriodEnd),
    },
  });
  await notifyOrganizationMembers(
    tx,
    subscription.organizationId,
    scheduledChangeCanceled(updated, asColumns(scheduled)),
  );
  return updated;
}
