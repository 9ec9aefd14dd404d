import type { MailSubscription, Payment, Transaction } from '@platform/db';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import type { PaymentsConfig } from '../config.js';
import type { CardProvider, SettlementContext } from '../payments/index.js';
import { checkDelayOf, insertPendingPayment, newPaymentReference, paymentStarted } from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { endCanceledSubscription } from './cancellation.js';
import { keepInvoicePayable, voidRenewalInvoice } from './renewal-invoice.js';
import { recordFailedRenewal } from './renewal-retries.js';
import { renewalValues } from './renewal-values.js';
import {
  finishChange,
  insertChange,
  lockNextDueRenewal,
  lockRenewalInvoiceOf,
  updateSubscriptionAt,
} from './repository.js';
import { standingOfClaimed } from './retirement.js';
import { type ChargeableCard, cardForRenewal } from './saved-cards.js';

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
 * outcome is applied by the payment hooks. Undefined when nothing is due.
 */
export async function takeNextDueRenewal(
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
