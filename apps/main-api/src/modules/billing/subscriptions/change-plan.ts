import type {
  MailSubscription,
  MailSubscriptionChange,
  NewMailSubscriptionChange,
  Payment,
  Transaction,
} from '@platform/db';
import { conflict, paymentFailed, validationError } from '@platform/errors';
import type { IdempotencyContext } from '@platform/idempotency';
import { formatKes, isSameSubscription, quote, type SubscriptionTerms } from '@platform/pricing';
import { findUserEmail } from '../../accounts/index.js';
import { type AuditContext, recordAuditEvent } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { CardProvider } from '../payments/index.js';
import {
  assertTakesPayments,
  chargeSavedCard,
  checkDelayOf,
  confirmationDelayOf,
  earlierAttemptOf,
  insertPendingPayment,
  newPaymentReference,
  paymentStarted,
  type StartedBy,
  startedByOf,
} from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { NO_ACTIVE_SUBSCRIPTION, type PricedChange, priceChange } from './change-plan-price.js';
import { changeScheduled, scheduledChangeCanceled, subscriptionChanged } from './notifications.js';
import {
  findChange,
  findChangeOfPayment,
  findChargingChange,
  insertChange,
  lockSubscription,
  updateSubscriptionAt,
} from './repository.js';
import { type ChargeableCard, cardForChange } from './saved-cards.js';
import { cancelScheduledChange, scheduleChange, scheduledTermsOf } from './scheduled-change.js';
import { messageOf, type PaymentsAccess } from './service.js';

// POST /v1/billing/upgrade (spec 4.9): a change of plan, seats or cycle. An upgrade is claimed in one short
// transaction, charged to a saved card outside any, and applied when the payment's success is recorded
// (payment-hooks.ts); a downgrade is scheduled for the period end (scheduled-change.ts); what it costs is
// change-plan-price.ts.

export interface UpgradeResult {
  /** 200 when the change applied; 202 when the card provider has not confirmed the charge yet. */
  statusCode: 200 | 202;
  message: string;
  /** The answer of an earlier request with the same idempotency key, rebuilt from where its change stands now. */
  replayed: boolean;
}

/**
 * POST /v1/billing/upgrade (spec 4.9): claim the change in one short transaction (claimChange), charge the
 * saved card outside any transaction, and apply the change in the transaction that records the payment's
 * success (payment-hooks.ts). A declined card is 402 payment_failed and leaves the subscription as it was.
 *
 * A charge not confirmed yet (the provider says pending, or its answer never came: the charge may have been
 * made) answers 202 and the change applies when the reconciliation job or the webhook settles the payment.
 * That 202 is not stored for replay (`skipStoring`): a retry with the same key finds the payment its key
 * started and answers from where the change stands then (202 while charging, 200 once applied), and charges
 * nothing again.
 */
export async function upgradeSubscription(
  payments: PaymentsAccess,
  requester: { organizationId: string; userId: string; audit: AuditContext },
  next: SubscriptionTerms,
  paymentMethodId: string | undefined,
  idempotency?: IdempotencyContext,
): Promise<UpgradeResult> {
  const { ctx } = payments;
  const startedBy = startedByOf(idempotency);
  const earlier = await earlierAttemptOf(ctx.db, requester.organizationId, startedBy, ctx.now());
  if (earlier.kind !== 'none') {
    const change = await findChangeOfPayment(ctx.db, earlier.payment.id);
    if (change !== undefined) return answer(change, earlier.payment, { replayed: true, idempotency });
  }

  const claim = await ctx.db.transaction((tx) =>
    claimChange(
      tx,
      {
        ...requester,
        next,
        ...(paymentMethodId === undefined ? {} : { paymentMethodId }),
        ...(startedBy === undefined ? {} : { startedBy }),
      },
      { now: ctx.now(), card: payments.providers.card, config: payments.config },
    ),
  );
  switch (claim.kind) {
    case 'applied':
      return { statusCode: 200, message: messageOf(subscriptionChanged(claim.change)), replayed: false };
    case 'scheduled': {
      const { next } = claim;
      const terms = { plan: next.plan, seats: next.seats, billingCycle: next.cycle };
      const content = changeScheduled(claim.subscription, terms, quote(next).total);
      return { statusCode: 200, message: messageOf(content), replayed: false };
    }
    case 'unscheduled': {
      const { canceled } = claim;
      const terms = { plan: canceled.plan, seats: canceled.seats, billingCycle: canceled.cycle };
      return {
        statusCode: 200,
        message: messageOf(scheduledChangeCanceled(claim.subscription, terms)),
        replayed: false,
      };
    }
    case 'charge':
      break;
  }

  const charged = await chargeSavedCard(ctx, payments.providers.card, claim.payment, claim.card, {
    confirmAfterMs: confirmationDelayOf(payments.config),
  });
  const change = (await findChange(ctx.db, claim.change.id)) ?? claim.change;
  return answer(change, charged.payment, { replayed: false, idempotency });
}

/** The answer for a change paid by `payment`, from where both stand now. */
function answer(
  change: MailSubscriptionChange,
  payment: Payment,
  options: { replayed: boolean; idempotency: IdempotencyContext | undefined },
): UpgradeResult {
  const { replayed } = options;
  switch (change.status) {
    case 'applied':
      return { statusCode: 200, message: messageOf(subscriptionChanged(change, payment.reference)), replayed };
    case 'charging':
      // Still changing: a retry must answer from the state then, not replay this.
      options.idempotency?.skipStoring();
      return {
        statusCode: 202,
        message: `The card payment (${payment.reference}) is being confirmed; the change applies as soon as it succeeds.`,
        replayed,
      };
    case 'superseded':
      throw conflict(
        `The subscription changed while the card was being charged: ${formatKes(payment.amount)} (${payment.reference}) ` +
          'was added to the credit balance instead',
      );
    case 'failed':
      if (payment.status === 'succeeded') {
        throw conflict(
          `The card payment (${payment.reference}) went through after the change had been given up: ` +
            `${formatKes(payment.amount)} was added to the credit balance instead`,
        );
      }
      throw paymentFailed(
        `The card payment did not go through: ${payment.failureReason ?? payment.status}. The subscription is unchanged`,
      );
  }
}

export const CHANGE_IN_PROGRESS =
  'Another change of this subscription is being paid for right now; try again once it has finished';

interface ChangeRequest {
  organizationId: string;
  userId: string;
  next: SubscriptionTerms;
  paymentMethodId?: string;
  /** The idempotent request asking for the change, remembered on its payment (a retry finds it). */
  startedBy?: StartedBy;
  /** Who asks, from which request, for the audit log. */
  audit: AuditContext;
}

type ChangeClaim =
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
 * (priceChange, the preview's code), and then schedules a downgrade for the period end, drops the scheduled change
 * when the current terms are asked for (docs/decisions.md#scheduled-downgrades), applies a change at once when the
 * card pays nothing, or claims it: the subscription's version moves on (so nothing decided on the old state can
 * apply), a `charging` change records the terms and amounts (at most one per subscription), and the card payment is
 * recorded as pending. Every refusal (400, 404, 409) is thrown before anything is written; while another change or a
 * renewal is being charged, every request is 409.
 */
async function claimChange(
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
  const plan = priceChange(subscription, request.next, now);
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
    await findUserEmail(tx, request.userId),
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
  plan: PricedChange,
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
