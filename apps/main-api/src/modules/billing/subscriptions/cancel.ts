import type { MailSubscription, Transaction } from '@platform/db';
import { conflict } from '@platform/errors';
import { notifyOrganizationMembers } from '@platform/notifications';
import { type AuditContext, PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import { retiredAtOf, type SettlementContext } from '../payments/index.js';
import { subscriptionCanceled, subscriptionCanceling, subscriptionResumed } from './notifications.js';
import { lockRenewalInvoiceOfOrganization } from './payment-rows-repository.js';
import { voidRenewalInvoice } from './renew-invoice.js';
import { lockSubscription, setCancellation, updateSubscriptionAt } from './repository.js';
import { NO_SCHEDULED_CHANGE } from './scheduled-change.js';
import { messageOf, type SubscriptionAnswer, viewOf } from './service.js';

// Cancel at the period end, and resume (docs/decisions.md#subscription-cancellation). A cancel only sets a flag:
// the subscription keeps its plan until the renewal job reaches it, which then ends it as canceled and charges
// nothing. The flag does not move the subscription's version, so a renewal already being charged when it is set
// still applies (the subscription is renewed, and ends at the end of the new period instead): a charge is never
// taken for a subscription that then ends.

export const NO_SUBSCRIPTION = 'The organization has no mail subscription; buy one with POST /v1/billing/pay';
export const SUBSCRIPTION_ENDED = 'The mail subscription has already ended; buy a new one with POST /v1/billing/pay';
export const NOT_SET_TO_CANCEL = 'The mail subscription is not set to cancel: there is nothing to resume';

interface Requester {
  organizationId: string;
  audit: AuditContext;
}

interface CancellationResult {
  subscription: MailSubscription;
  /** False when it was already so: nothing was written. */
  changed: boolean;
}

/** A subscription that has not ended: active, or past_due with its renewal being retried. */
function isRunning(subscription: MailSubscription): boolean {
  return subscription.status === 'active' || subscription.status === 'past_due';
}

async function lockRunning(tx: Transaction, organizationId: string): Promise<MailSubscription> {
  const subscription = await lockSubscription(tx, organizationId);
  if (subscription === undefined) throw conflict(NO_SUBSCRIPTION);
  if (!isRunning(subscription)) throw conflict(SUBSCRIPTION_ENDED);
  return subscription;
}

/**
 * POST /v1/billing/subscription/cancel, in the route's transaction (which also stores the idempotent answer): the
 * subscription ends at its period end instead of renewing (docs/decisions.md#subscription-cancellation).
 */
export async function cancelSubscription(
  tx: Transaction,
  ctx: SettlementContext,
  requester: { organizationId: string; audit: AuditContext },
  now: Date,
): Promise<SubscriptionAnswer> {
  const { subscription } = await requestCancellation(tx, ctx, requester, now);
  return { message: messageOf(subscriptionCanceling(subscription)), data: await viewOf(tx, subscription) };
}

/** POST /v1/billing/subscription/resume, in the route's transaction: the subscription renews again. */
export async function resumeCanceledSubscription(
  tx: Transaction,
  requester: { organizationId: string; audit: AuditContext },
): Promise<SubscriptionAnswer> {
  const subscription = await resumeSubscription(tx, requester);
  return { message: messageOf(subscriptionResumed(subscription)), data: await viewOf(tx, subscription) };
}

/**
 * POST /v1/billing/subscription/cancel: sets the subscription to end at its period end (a past_due one: at its
 * next payment attempt, instead of it), records it and tells the members. Asking again changes nothing. 409 when
 * there is no subscription or it has ended.
 */
async function requestCancellation(
  tx: Transaction,
  ctx: SettlementContext,
  requester: Requester,
  now: Date,
): Promise<CancellationResult> {
  // The organization's row first, as every settlement takes it (docs/decisions.md#retired-organizations-take-no-money).
  await retiredAtOf(tx, requester.organizationId);
  const invoice = await lockRenewalInvoiceOfOrganization(tx, requester.organizationId);
  const subscription = await lockRunning(tx, requester.organizationId);
  if (subscription.cancelAtPeriodEnd) return { subscription, changed: false };
  const updated = await setCancellation(tx, subscription.id, { cancelAtPeriodEnd: true, canceledAt: now });
  // A renewal invoice not paid yet is voided: nothing is owed for a renewal that will not happen. One already paid
  // renews as a card charge already made would (docs/decisions.md#renewal-invoices).
  if (invoice?.payment.status === 'pending') {
    await voidRenewalInvoice(tx, ctx, invoice, 'The subscription was set to cancel at its period end', now);
  }
  await recordAuditEvent(tx, requester.audit, {
    organizationId: subscription.organizationId,
    action: 'subscription.cancel_requested',
    targetType: 'subscription',
    targetId: subscription.id,
    details: {
      status: subscription.status,
      endsAt: (subscription.status === 'past_due'
        ? (subscription.renewalDueAt ?? now)
        : subscription.currentPeriodEnd
      ).toISOString(),
    },
  });
  await notifyOrganizationMembers(tx, subscription.organizationId, subscriptionCanceling(updated));
  return { subscription: updated, changed: true };
}

/**
 * POST /v1/billing/subscription/resume: the subscription renews again as before (a scheduled change stays
 * scheduled). 409 when there is no subscription, it has ended, or it is not set to cancel.
 */
async function resumeSubscription(tx: Transaction, requester: Requester): Promise<MailSubscription> {
  await retiredAtOf(tx, requester.organizationId);
  const subscription = await lockRunning(tx, requester.organizationId);
  if (!subscription.cancelAtPeriodEnd) throw conflict(NOT_SET_TO_CANCEL);
  const updated = await setCancellation(tx, subscription.id, { cancelAtPeriodEnd: false, canceledAt: null });
  await recordAuditEvent(tx, requester.audit, {
    organizationId: subscription.organizationId,
    action: 'subscription.resumed',
    targetType: 'subscription',
    targetId: subscription.id,
    details: { status: subscription.status, cancelRequestedAt: subscription.canceledAt?.toISOString() ?? null },
  });
  await notifyOrganizationMembers(tx, subscription.organizationId, subscriptionResumed(updated));
  return updated;
}

/**
 * The renewal job reached a subscription set to cancel (its period is over, or a past_due one's next try is due),
 * or the renewal charge of one failed: it ends as canceled, charging nothing, if it is still at `version`. False
 * when it changed since: nothing is done. Runs with the subscription row locked.
 */
export async function endCanceledSubscription(
  tx: Transaction,
  subscription: MailSubscription,
  version: number,
  now: Date,
): Promise<boolean> {
  const ended = await updateSubscriptionAt(tx, subscription, version, {
    status: 'canceled',
    renewalDueAt: null,
    cancelAtPeriodEnd: false,
    endedAt: now,
    pastDueSince: null,
    renewalFailures: 0,
    ...NO_SCHEDULED_CHANGE,
  });
  if (ended === undefined) return false;
  await recordAuditEvent(tx, PLATFORM_JOB, {
    organizationId: subscription.organizationId,
    action: 'subscription.canceled',
    targetType: 'subscription',
    targetId: subscription.id,
    details: {
      from: subscription.status,
      to: 'canceled',
      reason: 'canceled_at_period_end',
      cancelRequestedAt: subscription.canceledAt?.toISOString() ?? null,
    },
  });
  await notifyOrganizationMembers(tx, subscription.organizationId, subscriptionCanceled(subscription, now));
  return true;
}
