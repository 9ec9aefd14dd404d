import type { MailSubscription, Payment, Transaction } from '@platform/db';
import { isAppError } from '@platform/errors';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { CardProvider, InvoiceIssuer, SettlementContext } from '../payments/index.js';
import {
  chargeSavedCardPayment,
  checkDelayOf,
  insertPendingPayment,
  newPaymentReference,
  paymentStarted,
} from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { endCanceledSubscription } from './cancel.js';
import { lockRenewalInvoiceOf } from './payment-rows-repository.js';
import {
  issueNextRenewalInvoice,
  keepInvoicePayable,
  type RenewalInvoiceStep,
  voidRenewalInvoice,
} from './renew-invoice.js';
import { type ReminderStep, sendNextRenewalReminder } from './renew-reminders.js';
import { lockNextDueRenewal } from './renew-repository.js';
import { recordFailedRenewal } from './renew-retries.js';
import { renewalValues } from './renew-values.js';
import { finishChange, insertChange, statusOfSubscription, updateSubscriptionAt } from './repository.js';
import { standingOfClaimed } from './retirement.js';
import { type ChargeableCard, cardForRenewal } from './saved-cards.js';
import type { PaymentsAccess } from './service.js';

// The renewal job (docs/decisions.md#renewal-job): a round issues the renewal invoices owed (renew-invoice.ts), sends
// the reminders owed (renew-reminders.ts), then renews the subscriptions due, each claimed in its own short
// transaction and its card charged outside any; a renewal not paid is retried (renew-retries.ts).

/** What a round of the renewal job runs with: what it charges cards with, and what it invoices bank transfers with. */
export interface RenewalJobOptions extends PaymentsAccess {
  /** Issues the invoices of renewals paid by bank transfer (docs/decisions.md#renewal-invoices). */
  invoices: InvoiceIssuer;
  /** Reminders, and then subscriptions, taken per round. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 50;

/**
 * What became of one renewal: moved to the next period, not paid (past_due), ended after its last retry, ended as
 * asked (set to cancel), or charged but unconfirmed.
 */
type RenewalOutcome = 'renewed' | 'failed' | 'expired' | 'canceled' | 'pending';

export interface RenewalRound extends Record<RenewalOutcome, number> {
  /** Renewals paid by bank transfer invoiced 14 days ahead (docs/decisions.md#renewal-invoices). */
  invoiced: number;
  /** Reminders of a renewal 7 days or 1 day ahead sent (docs/decisions.md#renewal-reminders). */
  reminded: number;
  /** Moved to their next period (paid by card, or from credit). */
  renewed: number;
  /** Not paid: past_due, retried later (docs/decisions.md#renewal-retries). */
  failed: number;
  /** Not paid by the last retry: ended. */
  expired: number;
  /** Set to cancel: ended at the period end without a charge (docs/decisions.md#subscription-cancellation). */
  canceled: number;
  /** Charged, but the card provider has not answered finally yet (the reconciliation job settles them). */
  pending: number;
}

/**
 * One round of the renewal job (docs/decisions.md#renewal-job): sends the reminders owed, then renews due
 * subscriptions one at a time, each taken in its own short transaction, until none is due or the batch is done.
 * Several instances may run rounds at once.
 */
export async function renewDueSubscriptions(job: RenewalJobOptions): Promise<RenewalRound> {
  const round: RenewalRound = { invoiced: 0, reminded: 0, renewed: 0, failed: 0, expired: 0, canceled: 0, pending: 0 };
  const batchSize = job.batchSize ?? DEFAULT_BATCH_SIZE;
  // Invoices first, so that the reminders of the same round name them.
  const nothingToInvoice: string[] = [];
  for (let taken = 0; taken < batchSize; taken += 1) {
    const invoice = await invoiceNextRenewal(job, nothingToInvoice);
    if (invoice === undefined) break;
    if (invoice.step === 'issued') round.invoiced += 1;
    else nothingToInvoice.push(invoice.subscriptionId);
  }
  const leftForLater: string[] = [];
  for (let taken = 0; taken < batchSize; taken += 1) {
    const reminder = await remindNextRenewal(job, leftForLater);
    if (reminder === undefined) break;
    if (reminder.step === 'sent') round.reminded += 1;
    if (reminder.step === 'left_for_later') leftForLater.push(reminder.subscriptionId);
  }
  const busy: string[] = [];
  for (let taken = 0; taken < batchSize; taken += 1) {
    const outcome = await renewNextDueSubscription(job, busy);
    if (outcome === undefined) break;
    if (typeof outcome === 'object') busy.push(outcome.busy);
    else round[outcome] += 1;
  }
  if (Object.values(round).some((count) => count > 0)) {
    job.ctx.log.info(round, 'Mail subscription reminders and renewals ran');
  }
  return round;
}

/** What one renewal step did, and to which subscription when a round must leave it for a later one. */
type RenewalStepOutcome = RenewalOutcome | { busy: string };

/**
 * Renews the subscription most overdue for renewal: takes it in one short transaction (takeNextDueRenewal) and,
 * when its card must pay, charges the card outside any transaction; the charge settles through the payment
 * hooks, which move the period or count the failure (docs/decisions.md#renewal-retries). Undefined when nothing is
 * due. Several instances may renew at once: each subscription is claimed, and so charged, by one of them.
 */
async function renewNextDueSubscription(
  job: PaymentsAccess,
  skip: readonly string[] = [],
): Promise<RenewalStepOutcome | undefined> {
  const now = job.ctx.now();
  const step = await job.ctx.db.transaction((tx) =>
    takeNextDueRenewal(tx, { now, card: job.providers.card, config: job.config, ctx: job.ctx, skip }),
  );
  if (step === undefined) return undefined;
  if (step.kind === 'busy') return { busy: step.subscriptionId };
  if (step.kind !== 'charge') return step.kind;
  try {
    const payment = await chargeSavedCardPayment(job.ctx, job.providers.card, step.payment, step.card);
    if (payment.status === 'succeeded') return 'renewed';
    if (payment.status === 'pending') return 'pending';
  } catch (error) {
    // The provider refused or could not be reached: the payment has ended and the failure is counted.
    if (!isAppError(error)) throw error;
    job.ctx.log.warn({ err: error, reference: step.payment.reference }, 'A renewal charge did not go through');
  }
  // A failure may have ended it: after the last retry, or when it was set to cancel.
  const status = await statusOfSubscription(job.ctx.db, step.subscriptionId);
  return status === 'expired' || status === 'canceled' ? status : 'failed';
}

/**
 * Issues the renewal invoice owed soonest (a renewal paid by bank transfer, 14 days ahead), in one short transaction
 * (docs/decisions.md#renewal-invoices). Undefined when none is owed.
 */
function invoiceNextRenewal(
  job: RenewalJobOptions,
  skip: readonly string[],
): Promise<{ step: RenewalInvoiceStep; subscriptionId: string } | undefined> {
  const now = job.ctx.now();
  return job.ctx.db.transaction((tx) => issueNextRenewalInvoice(tx, { now, invoices: job.invoices, skip }));
}

/**
 * Sends the reminder of a coming renewal owed soonest, in one short transaction (docs/decisions.md#renewal-reminders).
 * Undefined when none is owed.
 */
function remindNextRenewal(
  job: PaymentsAccess,
  skip: readonly string[],
): Promise<{ step: ReminderStep; subscriptionId: string } | undefined> {
  const now = job.ctx.now();
  return job.ctx.db.transaction((tx) => sendNextRenewalReminder(tx, now, job.providers.card.name, skip));
}

const NO_CARD_TO_CHARGE = 'the organization has no saved card that can be charged';

type RenewalStep =
  /** Renewed without a charge: the credit balance paid for the next period. */
  | { kind: 'renewed' }
  /** There was no card to charge: the subscription is past_due. */
  | { kind: 'failed' }
  /** There was no card to charge at the last retry: the subscription has ended. */
  | { kind: 'expired' }
  /** It was set to cancel: it has ended, and nothing was charged. */
  | { kind: 'canceled' }
  /**
   * Its renewal invoice is being confirmed right now (docs/decisions.md#renewal-invoices), or its organization is being
   * retired: left for a later try.
   */
  | { kind: 'busy'; subscriptionId: string }
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
 * outcome is applied by the payment hooks (payment-hooks.ts). Undefined when nothing is due.
 */
async function takeNextDueRenewal(
  tx: Transaction,
  context: { now: Date; card: CardProvider; config: PaymentsConfig; ctx: SettlementContext; skip?: readonly string[] },
): Promise<RenewalStep | undefined> {
  const { now } = context;
  const subscription = await lockNextDueRenewal(tx, now, context.skip);
  if (subscription === undefined) return undefined;
  // No renewal ever charges a retired organization (docs/decisions.md#retired-organizations-take-no-money).
  const standing = await standingOfClaimed(tx, subscription, now);
  if (standing === 'busy') return { kind: 'busy', subscriptionId: subscription.id };
  if (standing === 'retired') return { kind: 'canceled' };

  const invoiced = await renewInvoiced(tx, subscription, context.ctx, now);
  if (invoiced !== undefined) return invoiced;

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

const INVOICE_NOT_PAID = 'the renewal invoice has not been paid by bank transfer yet';

/**
 * A due subscription whose renewal was invoiced (docs/decisions.md#renewal-invoices): paid ahead, it renews now from
 * that payment (even when set to cancel since, as a card charge already made would); not paid, it is set to cancel
 * (the invoice is voided and it ends), or the renewal counts as failed and is retried on the usual schedule
 * (docs/decisions.md#renewal-retries) while the invoice stays payable, and voided when the subscription expires.
 * Undefined when there is no renewal invoice: the card path follows.
 */
async function renewInvoiced(
  tx: Transaction,
  subscription: MailSubscription,
  ctx: SettlementContext,
  now: Date,
): Promise<RenewalStep | undefined> {
  const invoice = await lockRenewalInvoiceOf(tx, subscription.id);
  if (invoice === undefined) return undefined;
  if (invoice === 'busy') return { kind: 'busy', subscriptionId: subscription.id };
  const { change, payment } = invoice;

  if (payment.status === 'succeeded') {
    if (
      !(await applyChange(tx, subscription, change, PLATFORM_JOB, {
        paymentReference: payment.reference,
        byTransfer: true,
      }))
    )
      throw new Error('A locked subscription changed under its lock');
    await finishChange(tx, change, { status: 'applied', at: now });
    return { kind: 'renewed' };
  }
  if (payment.status !== 'pending') {
    throw new Error(`Renewal invoice payment ${payment.reference} is ${payment.status} while its change is charging`);
  }
  if (subscription.cancelAtPeriodEnd) {
    await voidRenewalInvoice(tx, ctx, invoice, 'The subscription was set to cancel at its period end', now);
    if (!(await endCanceledSubscription(tx, subscription, subscription.version, now)))
      throw new Error('A locked subscription changed under its lock');
    return { kind: 'canceled' };
  }
  const outcome = await recordFailedRenewal(tx, subscription, subscription.version, INVOICE_NOT_PAID, now);
  if (outcome === undefined) throw new Error('A locked subscription changed under its lock');
  if (outcome === 'past_due') {
    await keepInvoicePayable(tx, change, subscription.version + 1);
    return { kind: 'failed' };
  }
  await voidRenewalInvoice(tx, ctx, invoice, 'The subscription ended unpaid', now);
  return { kind: outcome };
}
