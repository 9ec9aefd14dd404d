import type {
  Database,
  DatabaseExecutor,
  MailSubscription,
  MailSubscriptionChange,
  Payment,
  Transaction,
} from '@platform/db';
import { conflict, isAppError, paymentFailed } from '@platform/errors';
import type { IdempotencyContext } from '@platform/idempotency';
import { formatKes, quote, type SubscriptionTerms } from '@platform/pricing';
import type { AuditContext } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { InvoiceIssuer, SettlementContext } from '../payments/index.js';
import {
  chargeSavedCard,
  chargeSavedCardPayment,
  confirmationDelayOf,
  earlierAttemptOf,
  type PaymentProviders,
  startedByOf,
} from '../payments/index.js';
import { requestCancellation, resumeSubscription } from './cancellation.js';
import { claimChange } from './change-claim.js';
import {
  changeScheduled,
  scheduledChangeCanceled,
  subscriptionCanceling,
  subscriptionChanged,
  subscriptionResumed,
} from './notifications.js';
import { dayOf } from './periods.js';
import { planChange } from './plan-change.js';
import { takeNextDueRenewal } from './renewal-claim.js';
import { issueNextRenewalInvoice, type RenewalInvoiceStep } from './renewal-invoice.js';
import { type ReminderStep, sendNextRenewalReminder } from './renewal-reminders.js';
import {
  findChange,
  findChangeOfPayment,
  findChargingChange,
  readSubscription,
  statusOfSubscription,
} from './repository.js';
import type { MailSubscriptionView, UpgradePreview } from './schemas.js';
import { toSubscriptionView } from './view.js';

// The operations on an organization's mail subscription: what the routes and the renewal job call. What a
// payment's outcome does to the subscription is in payment-hooks.ts, which payments call.

export interface SubscriptionDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
}

/**
 * GET /v1/billing/subscription: the organization's subscription as the API shows it, with whether a change or
 * renewal is being charged right now; null when the organization never had one
 * (docs/decisions.md#no-subscription-answers-null).
 */
export async function subscriptionViewOf(db: Database, organizationId: string): Promise<MailSubscriptionView | null> {
  const subscription = await readSubscription(db, organizationId);
  if (subscription === undefined) return null;
  return viewOf(db, subscription);
}

async function viewOf(db: DatabaseExecutor, subscription: MailSubscription): Promise<MailSubscriptionView> {
  const changeInProgress = (await findChargingChange(db, subscription.id)) !== undefined;
  return toSubscriptionView(subscription, changeInProgress);
}

/** What the cancel and resume routes answer: the subscription as GET /v1/billing/subscription shows it, and why. */
export interface SubscriptionAnswer {
  message: string;
  data: MailSubscriptionView;
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
 * GET /v1/billing/upgrade/preview (spec 4.8): what the change would cost if made now. The same planChange
 * prices the upgrade, so the two agree to the shilling on the same UTC day and the same stored state.
 */
export async function previewUpgrade(
  db: Database,
  organizationId: string,
  next: SubscriptionTerms,
  now: Date,
): Promise<UpgradePreview> {
  const subscription = await readSubscription(db, organizationId);
  const plan = planChange(subscription, next, now);
  const { proration } = plan;
  return {
    amountDueToday: plan.amountDueToday,
    kind: plan.kind,
    takesEffect: plan.takesEffect,
    cancelsScheduledChange: plan.cancelsScheduledChange,
    net: plan.net,
    creditApplied: plan.creditApplied,
    creditAdded: 0,
    creditBalance: subscription?.creditBalance ?? 0,
    daysInPeriod: proration.daysInPeriod,
    daysRemaining: proration.daysRemaining,
    cycleChanged: proration.cycleChanged,
    newPeriod: { start: dayOf(plan.period.start), end: dayOf(plan.period.end) },
    newPrice: proration.nextQuote.total,
  };
}

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
 * success (the payment hooks). A declined card is 402 payment_failed and leaves the subscription as it was.
 *
 * A charge not confirmed yet (the provider says pending, or its answer never came: the charge may have been
 * made) answers 202 and the change applies when the reconciliation job or the webhook settles the payment.
 * That 202 is not stored for replay (`skipStoring`): a retry with the same key finds the payment its key
 * started and answers from where the change stands then (202 while charging, 200 once applied), and charges
 * nothing again.
 */
export async function upgradeSubscription(
  deps: SubscriptionDeps,
  requester: { organizationId: string; userId: string; audit: AuditContext },
  next: SubscriptionTerms,
  paymentMethodId: string | undefined,
  idempotency?: IdempotencyContext,
): Promise<UpgradeResult> {
  const { ctx } = deps;
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
      { now: ctx.now(), card: deps.providers.card, config: deps.config },
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

  const charged = await chargeSavedCard(ctx, deps.providers.card, claim.payment, claim.card, {
    confirmAfterMs: confirmationDelayOf(deps.config),
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

function messageOf(content: { title: string; message: string }): string {
  return `${content.title}. ${content.message}`;
}

/**
 * What became of one renewal: moved to the next period, not paid (past_due), ended after its last retry, ended as
 * asked (set to cancel), or charged but unconfirmed.
 */
export type RenewalOutcome = 'renewed' | 'failed' | 'expired' | 'canceled' | 'pending';

/** What one renewal step did, and to which subscription when a round must leave it for a later one. */
export type RenewalStepOutcome = RenewalOutcome | { busy: string };

/**
 * Renews the subscription most overdue for renewal: takes it in one short transaction (takeNextDueRenewal) and,
 * when its card must pay, charges the card outside any transaction; the charge settles through the payment
 * hooks, which move the period or count the failure (docs/decisions.md#renewal-retries). Undefined when nothing is
 * due. Several instances may renew at once: each subscription is claimed, and so charged, by one of them.
 */
export async function renewNextDueSubscription(
  deps: SubscriptionDeps,
  skip: readonly string[] = [],
): Promise<RenewalStepOutcome | undefined> {
  const now = deps.ctx.now();
  const step = await deps.ctx.db.transaction((tx) =>
    takeNextDueRenewal(tx, { now, card: deps.providers.card, config: deps.config, ctx: deps.ctx, skip }),
  );
  if (step === undefined) return undefined;
  if (step.kind === 'busy') return { busy: step.subscriptionId };
  if (step.kind !== 'charge') return step.kind;
  try {
    const payment = await chargeSavedCardPayment(deps.ctx, deps.providers.card, step.payment, step.card);
    if (payment.status === 'succeeded') return 'renewed';
    if (payment.status === 'pending') return 'pending';
  } catch (error) {
    // The provider refused or could not be reached: the payment has ended and the failure is counted.
    if (!isAppError(error)) throw error;
    deps.ctx.log.warn({ err: error, reference: step.payment.reference }, 'A renewal charge did not go through');
  }
  // A failure may have ended it: after the last retry, or when it was set to cancel.
  const status = await statusOfSubscription(deps.ctx.db, step.subscriptionId);
  return status === 'expired' || status === 'canceled' ? status : 'failed';
}

/**
 * Issues the renewal invoice owed soonest (a renewal paid by bank transfer, 14 days ahead), in one short transaction
 * (docs/decisions.md#renewal-invoices). Undefined when none is owed.
 */
export function invoiceNextRenewal(
  deps: SubscriptionDeps & { invoices: InvoiceIssuer },
  skip: readonly string[],
): Promise<{ step: RenewalInvoiceStep; subscriptionId: string } | undefined> {
  const now = deps.ctx.now();
  return deps.ctx.db.transaction((tx) => issueNextRenewalInvoice(tx, { now, invoices: deps.invoices, skip }));
}

/**
 * Sends the reminder of a coming renewal owed soonest, in one short transaction (docs/decisions.md#renewal-reminders).
 * Undefined when none is owed.
 */
export function remindNextRenewal(
  deps: SubscriptionDeps,
  skip: readonly string[],
): Promise<{ step: ReminderStep; subscriptionId: string } | undefined> {
  const now = deps.ctx.now();
  return deps.ctx.db.transaction((tx) => sendNextRenewalReminder(tx, now, deps.providers.card.name, skip));
}
