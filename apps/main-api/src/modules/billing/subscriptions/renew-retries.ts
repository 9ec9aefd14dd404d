import type { MailSubscription, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import { endCanceledSubscription } from './cancel.js';
import { renewalFailed, renewalRetryFailed, subscriptionExpired } from './notifications.js';
import { updateSubscriptionAt } from './repository.js';
import { NO_SCHEDULED_CHANGE } from './scheduled-change.js';

// What happens when a renewal is not paid (docs/decisions.md#renewal-retries): the subscription becomes past_due
// (keeping its plan) and the renewal is tried again on days 1, 3 and 5 after the first failure; when the try on day
// 5 fails too, it ends (expired). Members are told at each step.

const DAY_MS = 24 * 60 * 60 * 1000;

/** The days after the first failure on which a renewal is tried again. */
const RENEWAL_RETRY_DAYS = [1, 3, 5] as const;

/** The least time between a failure and the next try, when the try's day has passed already (its answer came late). */
const MIN_RETRY_GAP_MS = 60 * 60 * 1000;

/** The values of a subscription that is not past_due: set by every change that makes it active or ends it. */
export const NOT_PAST_DUE = { pastDueSince: null, renewalFailures: 0 } as const;

/** The moments of the retries of a renewal that first failed at `since`. */
function retriesAfter(since: Date): Date[] {
  return RENEWAL_RETRY_DAYS.map((days) => new Date(since.getTime() + days * DAY_MS));
}

export type FailedRenewalOutcome =
  /** Past due, with its next retry scheduled. */
  | 'past_due'
  /** The last retry failed: the subscription has ended. */
  | 'expired'
  /** It was set to cancel: it ends now rather than being retried. */
  | 'canceled';

/**
 * A renewal attempt was not paid (the card declined, or no card could be charged). If the subscription is still at
 * `version`: one set to cancel ends as canceled; otherwise the failure is counted, and the subscription becomes (or
 * stays) past_due with its next retry due, or, after the last retry, expires. Undefined when it changed since:
 * nothing is done. Runs with the subscription row locked.
 */
export async function recordFailedRenewal(
  tx: Transaction,
  subscription: MailSubscription,
  version: number,
  reason: string,
  now: Date,
): Promise<FailedRenewalOutcome | undefined> {
  if (subscription.cancelAtPeriodEnd) {
    return (await endCanceledSubscription(tx, subscription, version, now)) ? 'canceled' : undefined;
  }
  const wasPastDue = subscription.status === 'past_due';
  // Rows made past_due before the retry schedule count from their period end, as one failure (migration 0021).
  const since = wasPastDue ? (subscription.pastDueSince ?? subscription.currentPeriodEnd) : now;
  const failures = wasPastDue ? Math.max(subscription.renewalFailures, 1) + 1 : 1;
  const retries = retriesAfter(since);
  const scheduledRetry = retries[failures - 1];
  const nextRetry =
    scheduledRetry === undefined
      ? undefined
      : new Date(Math.max(scheduledRetry.getTime(), now.getTime() + MIN_RETRY_GAP_MS));
  const event = {
    organizationId: subscription.organizationId,
    targetType: 'subscription',
    targetId: subscription.id,
  };

  if (nextRetry === undefined) {
    const ended = await updateSubscriptionAt(tx, subscription, version, {
      status: 'expired',
      renewalDueAt: null,
      endedAt: now,
      cancelAtPeriodEnd: false,
      ...NOT_PAST_DUE,
      ...NO_SCHEDULED_CHANGE,
    });
    if (ended === undefined) return undefined;
    await recordAuditEvent(tx, PLATFORM_JOB, {
      ...event,
      action: 'subscription.expired',
      details: { from: subscription.status, to: 'expired', reason, failedAttempts: failures },
    });
    await notifyOrganizationMembers(tx, subscription.organizationId, subscriptionExpired(subscription, reason));
    return 'expired';
  }

  const updated = await updateSubscriptionAt(tx, subscription, version, {
    status: 'past_due',
    pastDueSince: since,
    renewalFailures: failures,
    renewalDueAt: nextRetry,
  });
  if (updated === undefined) return undefined;
  if (!wasPastDue) {
    await recordAuditEvent(tx, PLATFORM_JOB, {
      ...event,
      action: 'subscription.past_due',
      details: { from: subscription.status, to: 'past_due', reason, nextRetryAt: nextRetry.toISOString() },
    });
    await notifyOrganizationMembers(tx, subscription.organizationId, renewalFailed(updated, reason, retries));
    return 'past_due';
  }
  const retry = {
    number: failures - 1,
    of: RENEWAL_RETRY_DAYS.length,
    next: nextRetry,
    last: retries.at(-1) ?? nextRetry,
  };
  await recordAuditEvent(tx, PLATFORM_JOB, {
    ...event,
    action: 'subscription.renewal_retry_failed',
    details: { retry: retry.number, of: retry.of, reason, nextRetryAt: nextRetry.toISOString() },
  });
  await notifyOrganizationMembers(tx, subscription.organizationId, renewalRetryFailed(updated, reason, retry));
  return 'past_due';
}
