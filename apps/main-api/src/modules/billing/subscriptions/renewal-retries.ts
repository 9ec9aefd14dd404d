import type { MailSubscription, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import { renewalFailed } from './notifications.js';
import { updateSubscriptionAt } from './repository.js';

/** A past_due subscription's renewal is tried again this long after a failed attempt. */
export const RENEWAL_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * How long a subscription stays past_due (keeping its plan) after the end of the period it did not pay for;
 * then the renewal job ends it (expired).
 */
export const PAST_DUE_GRACE_MS = 14 * 24 * 60 * 60 * 1000;

/** When a past_due subscription expires unless it is paid for. */
export function graceEndOf(subscription: MailSubscription): Date {
  return new Date(subscription.currentPeriodEnd.getTime() + PAST_DUE_GRACE_MS);
}

/**
 * A renewal could not be paid: the subscription becomes (or stays) past_due and is retried after
 * RENEWAL_RETRY_AFTER_MS, if it is still at `version`. Members are notified when it becomes past_due.
 */
export async function markPastDue(
  tx: Transaction,
  subscription: MailSubscription,
  version: number,
  reason: string,
  now: Date,
): Promise<boolean> {
  const updated = await updateSubscriptionAt(tx, subscription, version, {
    status: 'past_due',
    renewalDueAt: new Date(now.getTime() + RENEWAL_RETRY_AFTER_MS),
  });
  if (updated === undefined) return false;
  if (subscription.status !== 'past_due') {
    // The renewal job's doing (or a renewal charge's failure): recorded when it becomes past_due, not at each retry.
    await recordAuditEvent(tx, PLATFORM_JOB, {
      organizationId: subscription.organizationId,
      action: 'subscription.past_due',
      targetType: 'subscription',
      targetId: subscription.id,
      details: { from: subscription.status, to: 'past_due', reason },
    });
    await notifyOrganizationMembers(
      tx,
      subscription.organizationId,
      renewalFailed(updated, reason, graceEndOf(updated)),
    );
  }
  return true;
}
