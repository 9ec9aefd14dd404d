import type { DatabaseExecutor, MailSubscription, Payment, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { type AuditedChange, PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import type { PaidFor } from '../payments/index.js';
import { creditPayment } from './credit-payment.js';
import { subscriptionStarted } from './notifications.js';
import { type BillingPeriod, billingPeriod, dayOf } from './periods.js';
import { NOT_PAST_DUE } from './renew-retries.js';
import {
  findSubscription,
  insertSubscriptionUnlessExists,
  lockSubscription,
  updateSubscriptionAt,
} from './repository.js';
import { NO_SCHEDULED_CHANGE } from './scheduled-change.js';

// Buying a mail subscription (docs/decisions.md#subscription-purchases): one is refused while another is active, and a
// purchase paid starts the organization's subscription, or replaces one that no longer runs.

/**
 * The rule of purchases: a subscription is active at `at` when its status is active and its period has not ended.
 * While it is, no other can be bought, and a purchase paid meanwhile goes to the credit balance.
 */
function isActiveAt(subscription: MailSubscription, at: Date): boolean {
  return subscription.status === 'active' && subscription.currentPeriodEnd > at;
}

/**
 * Whether the organization has a mail subscription active at `now`, so that it may not start a purchase of another
 * (a 409 for the pay request). Read without a lock, in the caller's transaction if it has one.
 */
export async function hasActiveSubscription(db: DatabaseExecutor, organizationId: string, now: Date): Promise<boolean> {
  const subscription = await findSubscription(db, organizationId);
  return subscription !== undefined && isActiveAt(subscription, now);
}

/** The first period a paid mail subscription purchase starts: from the UTC day it was paid, for its cycle. */
export function purchasedPeriod(payment: Payment): BillingPeriod {
  const { billingCycle, completedAt } = payment;
  if (billingCycle === null || completedAt === null) {
    throw new Error(`Payment ${payment.reference} is not a paid mail subscription purchase`);
  }
  return billingPeriod(dayOf(completedAt), billingCycle, 0);
}

/**
 * The purchase hook: a paid mail_subscription payment starts the organization's subscription with the
 * payment's plan, seats and cycle, anchored on the UTC day of payment (period 0 runs from that day to the
 * same day a month or year later), or replaces one that no longer runs (past_due, canceled, expired, or
 * active but past its period). A card that paid becomes the card renewals charge. The credit balance stays.
 *
 * A purchase is refused while a subscription is active, so one paid while another is active means two
 * purchases raced and both were paid: the later one is not lost, it goes to the credit balance
 * (docs/decisions.md#subscription-purchases). Says what the payment paid for: the period started, or the credit.
 */
export async function activatePurchasedSubscription(tx: Transaction, payment: Payment): Promise<PaidFor> {
  const { plan, seats, billingCycle, completedAt } = payment;
  if (plan === null || seats === null || billingCycle === null || completedAt === null) {
    throw new Error(`Payment ${payment.reference} is not a paid mail subscription purchase`);
  }
  const period = purchasedPeriod(payment);
  const terms = {
    plan,
    seats,
    billingCycle,
    status: 'active' as const,
    currentPeriodStart: period.start,
    currentPeriodEnd: period.end,
    billingAnchor: period.anchor,
    periodIndex: 0,
    renewalDueAt: period.end,
    // A replaced subscription's cancel request, retries and scheduled change end with it.
    cancelAtPeriodEnd: false,
    canceledAt: null,
    endedAt: null,
    ...NOT_PAST_DUE,
    ...NO_SCHEDULED_CHANGE,
    ...(payment.channel === 'card' && payment.paymentMethodId !== null
      ? { paymentMethodId: payment.paymentMethodId }
      : {}),
  };

  const current = await lockSubscription(tx, payment.organizationId);
  if (current === undefined) {
    const started = await insertSubscriptionUnlessExists(tx, { organizationId: payment.organizationId, ...terms });
    // Another purchase of the organization started one meanwhile: decide again against it.
    if (started === undefined) return activatePurchasedSubscription(tx, payment);
    await recordAuditEvent(tx, PLATFORM_JOB, subscriptionStartedBy(payment, started.id, null));
    await notifyOrganizationMembers(tx, payment.organizationId, subscriptionStarted(started, false));
    return periodPaid(period);
  }

  if (isActiveAt(current, completedAt)) {
    const why = 'A mail subscription was already active when this purchase was paid';
    await creditPayment(tx, current, payment, { amount: payment.amount, reason: 'duplicate_purchase', why });
    return addedToCredit(why);
  }

  const started = await updateSubscriptionAt(tx, current, current.version, terms);
  if (started === undefined)
    throw new Error(`The subscription of payment ${payment.reference} changed while it was locked`);
  const reactivated = current.status === 'active' || current.status === 'past_due';
  await recordAuditEvent(tx, PLATFORM_JOB, subscriptionStartedBy(payment, started.id, current.status));
  await notifyOrganizationMembers(tx, payment.organizationId, subscriptionStarted(started, reactivated));
  return periodPaid(period);
}

/** A period a payment paid for, as its receipt says it. */
export function periodPaid(period: { start: Date; end: Date }): PaidFor {
  return { kind: 'period', start: period.start, end: period.end };
}

/** A payment whose purpose could no longer apply, added to the credit balance instead: what its receipt says. */
export function addedToCredit(why: string): PaidFor {
  return { kind: 'not_applied', note: `${why}: the amount was added to the credit balance.` };
}

/** A purchase's start of a subscription, as the audit log records it (the platform's, once the payment settled). */
function subscriptionStartedBy(payment: Payment, subscriptionId: string, previousStatus: string | null): AuditedChange {
  return {
    organizationId: payment.organizationId,
    action: 'subscription.started',
    targetType: 'subscription',
    targetId: subscriptionId,
    details: {
      plan: payment.plan,
      seats: payment.seats,
      billingCycle: payment.billingCycle,
      paymentReference: payment.reference,
      previousStatus,
      requestedByUserId: payment.userId,
    },
  };
}
