import type { MailSubscription, NewMailSubscriptionChange, Payment, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { quote } from '@platform/pricing';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { CardProvider } from '../payments/index.js';
import { checkDelayOf, insertPendingPayment, newPaymentReference, paymentStarted } from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { subscriptionExpired } from './notifications.js';
import { graceEndOf, markPastDue } from './past-due.js';
import { nextPeriodOf } from './periods.js';
import { insertChange, lockNextDueRenewal, updateSubscriptionAt } from './repository.js';
import { type ChargeableCard, cardForRenewal } from './saved-cards.js';

const NO_CARD_TO_CHARGE = 'the organization has no saved card that can be charged';

export type RenewalStep =
  /** Renewed without a charge: the credit balance paid for the next period. */
  | { kind: 'renewed' }
  /** There was no card to charge: the subscription is past_due. */
  | { kind: 'failed' }
  /** Past due for longer than the grace period: the subscription has ended. */
  | { kind: 'expired' }
  /** Claimed, with its payment pending: charge `card` now, outside any transaction. */
  | { kind: 'charge'; payment: Payment; card: ChargeableCard };

/**
 * One short transaction of the renewal job: claims the subscription most overdue for renewal (its period
 * ended, or a past_due one is due for a retry) with FOR UPDATE SKIP LOCKED, so job instances take different
 * subscriptions, and decides what happens to it. The next period is paid from the credit balance first; what
 * is left is charged to the saved card: the claim moves the subscription's version on, takes it out of the
 * queue (renewal_due_at null) and records the charge as pending, so no other instance charges it again. The
 * charge's outcome is applied by the payment hooks. Undefined when nothing is due.
 */
export async function takeNextDueRenewal(
  tx: Transaction,
  context: { now: Date; card: CardProvider; config: PaymentsConfig },
): Promise<RenewalStep | undefined> {
  const { now } = context;
  const subscription = await lockNextDueRenewal(tx, now);
  if (subscription === undefined) return undefined;

  if (subscription.status === 'past_due' && now >= graceEndOf(subscription)) {
    await updateSubscriptionAt(tx, subscription, subscription.version, { status: 'expired', renewalDueAt: null });
    await recordAuditEvent(tx, PLATFORM_JOB, {
      organizationId: subscription.organizationId,
      action: 'subscription.expired',
      targetType: 'subscription',
      targetId: subscription.id,
      details: { from: subscription.status, to: 'expired' },
    });
    await notifyOrganizationMembers(tx, subscription.organizationId, subscriptionExpired(subscription));
    return { kind: 'expired' };
  }

  const values = renewalValues(subscription);
  if (values.amountDue === 0) {
    const change = await insertChange(tx, {
      ...values,
      status: 'applied',
      baseVersion: subscription.version,
      completedAt: now,
    });
    if (!(await applyChange(tx, subscription, change, PLATFORM_JOB)))
      throw new Error('A locked subscription changed under its lock');
    return { kind: 'renewed' };
  }

  const card = await cardForRenewal(tx, subscription, context.card.name);
  if (card === undefined) {
    await insertChange(tx, {
      ...values,
      status: 'failed',
      baseVersion: subscription.version,
      completedAt: now,
      failureReason: NO_CARD_TO_CHARGE,
    });
    await markPastDue(tx, subscription, subscription.version, NO_CARD_TO_CHARGE, now);
    return { kind: 'failed' };
  }

  const claimed = await updateSubscriptionAt(tx, subscription, subscription.version, { renewalDueAt: null });
  if (claimed === undefined) throw new Error('A locked subscription changed under its lock');
  const payment = await insertPendingPayment(tx, {
    reference: newPaymentReference(),
    organizationId: subscription.organizationId,
    userId: null,
    method: 'saved_method',
    channel: 'card',
    purpose: 'mail_subscription_renewal',
    provider: context.card.name,
    amount: values.amountDue,
    paymentMethodId: card.id,
    plan: subscription.plan,
    seats: subscription.seats,
    billingCycle: subscription.billingCycle,
    nextCheckAt: new Date(now.getTime() + checkDelayOf(context.config, 'card', true)),
    createdAt: now,
  });
  await recordAuditEvent(tx, PLATFORM_JOB, paymentStarted(payment));
  await insertChange(tx, { ...values, status: 'charging', baseVersion: claimed.version, paymentId: payment.id });
  return { kind: 'charge', payment, card };
}

/** The next period at the current terms, paid from the credit balance first. */
function renewalValues(
  subscription: MailSubscription,
): Omit<NewMailSubscriptionChange, 'status' | 'baseVersion'> & { amountDue: number } {
  const period = nextPeriodOf(subscription);
  const { total } = quote({ plan: subscription.plan, seats: subscription.seats, cycle: subscription.billingCycle });
  const creditApplied = Math.min(subscription.creditBalance, total);
  return {
    subscriptionId: subscription.id,
    organizationId: subscription.organizationId,
    kind: 'renewal',
    fromPlan: subscription.plan,
    fromSeats: subscription.seats,
    fromBillingCycle: subscription.billingCycle,
    plan: subscription.plan,
    seats: subscription.seats,
    billingCycle: subscription.billingCycle,
    billingAnchor: period.anchor,
    periodIndex: period.index,
    periodStart: period.start,
    periodEnd: period.end,
    net: total,
    creditApplied,
    amountDue: total - creditApplied,
  };
}
