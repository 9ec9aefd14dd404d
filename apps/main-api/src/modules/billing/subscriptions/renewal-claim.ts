import type { MailSubscription, NewMailSubscriptionChange, Payment, Transaction } from '@platform/db';
import { quote } from '@platform/pricing';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { CardProvider } from '../payments/index.js';
import { checkDelayOf, insertPendingPayment, newPaymentReference, paymentStarted } from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { endCanceledSubscription } from './cancellation.js';
import { periodAfter } from './periods.js';
import { recordFailedRenewal } from './renewal-retries.js';
import { insertChange, lockNextDueRenewal, updateSubscriptionAt } from './repository.js';
import { type ChargeableCard, cardForRenewal } from './saved-cards.js';
import { renewalTermsOf, scheduledTermsOf } from './scheduled-change.js';

const NO_CARD_TO_CHARGE = 'the organization has no saved card that can be charged';

export type RenewalStep =
  /** Renewed without a charge: the credit balance paid for the next period. */
  | { kind: 'renewed' }
  /** There was no card to charge: the subscription is past_due. */
  | { kind: 'failed' }
  /** There was no card to charge at the last retry: the subscription has ended. */
  | { kind: 'expired' }
  /** It was set to cancel: it has ended, and nothing was charged. */
  | { kind: 'canceled' }
  /** Claimed, with its payment pending: charge `card` now, outside any transaction. */
  | { kind: 'charge'; subscriptionId: string; payment: Payment; card: ChargeableCard };

/**
 * One short transaction of the renewal job: claims the subscription most overdue for renewal (its period
 * ended, or a past_due one is due for a retry) with FOR UPDATE SKIP LOCKED, so job instances take different
 * subscriptions, and decides what happens to it. One set to cancel ends as canceled, charging nothing
 * (docs/decisions.md#subscription-cancellation). Otherwise the next period, at the scheduled change's terms if
 * there is one (docs/decisions.md#scheduled-downgrades), is paid from the credit balance first; what is left is
 * charged to the saved card: the claim moves the subscription's version on, takes it out of the queue
 * (renewal_due_at null) and records the charge as pending, so no other instance charges it again. The charge's
 * outcome is applied by the payment hooks. Undefined when nothing is due.
 */
export async function takeNextDueRenewal(
  tx: Transaction,
  context: { now: Date; card: CardProvider; config: PaymentsConfig },
): Promise<RenewalStep | undefined> {
  const { now } = context;
  const subscription = await lockNextDueRenewal(tx, now);
  if (subscription === undefined) return undefined;

  if (subscription.cancelAtPeriodEnd) {
    if (!(await endCanceledSubscription(tx, subscription, subscription.version, now)))
      throw new Error('A locked subscription changed under its lock');
    return { kind: 'canceled' };
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
    const outcome = await recordFailedRenewal(tx, subscription, subscription.version, NO_CARD_TO_CHARGE, now);
    if (outcome === undefined) throw new Error('A locked subscription changed under its lock');
    return { kind: outcome === 'past_due' ? 'failed' : outcome };
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
    plan: values.plan,
    seats: values.seats,
    billingCycle: values.billingCycle,
    nextCheckAt: new Date(now.getTime() + checkDelayOf(context.config, 'card', true)),
    createdAt: now,
  });
  await recordAuditEvent(tx, PLATFORM_JOB, paymentStarted(payment));
  await insertChange(tx, { ...values, status: 'charging', baseVersion: claimed.version, paymentId: payment.id });
  return { kind: 'charge', subscriptionId: subscription.id, payment, card };
}

/** The next period, at the scheduled change's terms or the current ones, paid from the credit balance first. */
function renewalValues(
  subscription: MailSubscription,
): Omit<NewMailSubscriptionChange, 'status' | 'baseVersion'> & { amountDue: number } {
  const terms = renewalTermsOf(subscription);
  const period = periodAfter(subscription, terms.cycle);
  const { total } = quote(terms);
  const creditApplied = Math.min(subscription.creditBalance, total);
  return {
    subscriptionId: subscription.id,
    organizationId: subscription.organizationId,
    kind: 'renewal',
    fromPlan: subscription.plan,
    fromSeats: subscription.seats,
    fromBillingCycle: subscription.billingCycle,
    plan: terms.plan,
    seats: terms.seats,
    billingCycle: terms.cycle,
    billingAnchor: period.anchor,
    periodIndex: period.index,
    periodStart: period.start,
    periodEnd: period.end,
    net: total,
    creditApplied,
    amountDue: total - creditApplied,
    // A scheduled change is the renewal of the member who asked for it.
    requestedByUserId: scheduledTermsOf(subscription) === undefined ? null : subscription.scheduledByUserId,
  };
}
