import type {
  MailSubscription,
  MailSubscriptionChange,
  NewMailSubscriptionChange,
  Payment,
  Transaction,
} from '@platform/db';
import { conflict, validationError } from '@platform/errors';
import { formatKes, isSameSubscription, type SubscriptionTerms } from '@platform/pricing';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { CardProvider } from '../payments/index.js';
import {
  assertTakesPayments,
  checkDelayOf,
  insertPendingPayment,
  newPaymentReference,
  paymentStarted,
  type StartedBy,
} from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { NO_ACTIVE_SUBSCRIPTION, type PlannedChange, planChange } from './plan-change.js';
import { findChargingChange, insertChange, lockSubscription, updateSubscriptionAt } from './repository.js';
import { type ChargeableCard, cardForChange } from './saved-cards.js';
import { emailOfUser } from './saved-cards-repository.js';
import { cancelScheduledChange, scheduleChange, scheduledTermsOf } from './scheduled-change.js';

export const CHANGE_IN_PROGRESS =
  'Another change of this subscription is being paid for right now; try again once it has finished';

export interface ChangeRequest {
  organizationId: string;
  userId: string;
  next: SubscriptionTerms;
  paymentMethodId?: string;
  /** The idempotent request asking for the change, remembered on its payment (a retry finds it). */
  startedBy?: StartedBy;
  /** Who asks, from which request, for the audit log. */
  audit: AuditContext;
}

export type ChangeClaim =
  /** Nothing to charge (credit covers it, or it costs the same): the change is already applied. */
  | { kind: 'applied'; change: MailSubscriptionChange }
  /** A downgrade: scheduled for the period end (or it already was), nothing charged or credited. */
  | { kind: 'scheduled'; subscription: MailSubscription; next: SubscriptionTerms }
  /** The current terms, asked for while a change was scheduled: that change is dropped. */
  | { kind: 'unscheduled'; subscription: MailSubscription; canceled: SubscriptionTerms }
  /** The change is claimed and its payment recorded as pending: charge `card` now, outside any transaction. */
  | { kind: 'charge'; change: MailSubscriptionChange; payment: Payment; card: ChargeableCard };

/**
 * The first, short transaction of an upgrade. With the subscription row locked it prices the change
 * (planChange, the preview's code), and then schedules a downgrade for the period end, drops the scheduled change
 * when the current terms are asked for (docs/decisions.md#scheduled-downgrades), applies a change at once when the
 * card pays nothing, or claims it: the subscription's version moves on (so nothing decided on the old state can
 * apply), a `charging` change records the terms and amounts (at most one per subscription), and the card payment is
 * recorded as pending. Every refusal (400, 404, 409) is thrown before anything is written; while another change or a
 * renewal is being charged, every request is 409.
 */
export async function claimChange(
  tx: Transaction,
  request: ChangeRequest,
  context: { now: Date; card: CardProvider; config: PaymentsConfig },
): Promise<ChangeClaim> {
  const { now } = context;
  // The organization's row before the subscription's, as every settlement takes them: a change asked for while the
  // organization was being retired is refused (docs/decisions.md#retired-organizations-take-no-money).
  await assertTakesPayments(tx, request.organizationId);
  const subscription = await lockSubscription(tx, request.organizationId);
  if (subscription === undefined) throw conflict(NO_ACTIVE_SUBSCRIPTION);
  const plan = planChange(subscription, request.next, now);
  if ((await findChargingChange(tx, subscription.id)) !== undefined) throw conflict(CHANGE_IN_PROGRESS);
  const requester = { userId: request.userId, audit: request.audit };
  if (plan.takesEffect === 'period_end') {
    return {
      kind: 'scheduled',
      subscription: await scheduleChange(tx, subscription, plan.next, requester, now),
      next: plan.next,
    };
  }
  if (isSameSubscription(plan.current, plan.next)) {
    const canceled = scheduledTermsOf(subscription);
    if (canceled === undefined) throw new Error('The current terms were priced as a change with nothing scheduled');
    return { kind: 'unscheduled', subscription: await cancelScheduledChange(tx, subscription, requester), canceled };
  }
  const values = changeValues(subscription, plan, request.userId);

  if (plan.amountDueToday === 0) {
    const change = await insertChange(tx, {
      ...values,
      status: 'applied',
      baseVersion: subscription.version,
      completedAt: now,
    });
    if (!(await applyChange(tx, subscription, change, request.audit)))
      throw new Error('A locked subscription changed under its lock');
    return { kind: 'applied', change };
  }

  const card = await cardForChange(
    tx,
    request.organizationId,
    request.paymentMethodId,
    context.card.name,
    await emailOfUser(tx, request.userId),
  );
  checkCardLimit(plan.amountDueToday, context.config.maxAmount.card);

  const claimed = await updateSubscriptionAt(tx, subscription, subscription.version, {});
  if (claimed === undefined) throw new Error('A locked subscription changed under its lock');
  const payment = await insertPendingPayment(
    tx,
    {
      reference: newPaymentReference(),
      organizationId: request.organizationId,
      userId: request.userId,
      method: 'saved_method',
      channel: 'card',
      purpose: 'mail_subscription_change',
      provider: context.card.name,
      amount: plan.amountDueToday,
      paymentMethodId: card.id,
      plan: plan.next.plan,
      seats: plan.next.seats,
      billingCycle: plan.next.cycle,
      nextCheckAt: new Date(now.getTime() + checkDelayOf(context.config, 'card', true)),
      createdAt: now,
    },
    request.startedBy,
  );
  await recordAuditEvent(tx, request.audit, paymentStarted(payment));
  const change = await insertChange(tx, {
    ...values,
    status: 'charging',
    baseVersion: claimed.version,
    paymentId: payment.id,
  });
  return { kind: 'charge', change, payment, card };
}

function changeValues(
  subscription: MailSubscription,
  plan: PlannedChange,
  userId: string,
): Omit<NewMailSubscriptionChange, 'status' | 'baseVersion'> {
  return {
    subscriptionId: subscription.id,
    organizationId: subscription.organizationId,
    kind: plan.kind,
    fromPlan: subscription.plan,
    fromSeats: subscription.seats,
    fromBillingCycle: subscription.billingCycle,
    plan: plan.next.plan,
    seats: plan.next.seats,
    billingCycle: plan.next.cycle,
    billingAnchor: plan.period.anchor,
    periodIndex: plan.period.index,
    periodStart: plan.period.start,
    periodEnd: plan.period.end,
    net: plan.net,
    creditApplied: plan.creditApplied,
    amountDue: plan.amountDueToday,
    requestedByUserId: userId,
  };
}

/** One card payment may not exceed MAX_AMOUNT_CARD, whatever it pays for. */
function checkCardLimit(amount: number, limit: number): void {
  if (amount <= limit) return;
  const message = `The amount due today (${formatKes(amount)}) is above the ${formatKes(limit)} limit of card payments`;
  throw validationError(message, [{ path: '/', message }]);
}
