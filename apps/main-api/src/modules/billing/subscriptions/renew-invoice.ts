import type { MailSubscriptionChange, Payment, Transaction } from '@platform/db';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import {
  type InvoiceIssuer,
  insertPendingPayment,
  newPaymentReference,
  newTransferReference,
  paymentStarted,
  type SettlementContext,
  settleFoundPayment,
} from '../payments/index.js';
import { lockNextRenewalToInvoice } from './renew-repository.js';
import { renewalValues } from './renew-values.js';
import { finishChange, insertChange, rebaseChange } from './repository.js';
import { standingOfClaimed } from './retirement.js';

// Renewals paid by bank transfer (docs/decisions.md#renewal-invoices): a subscription last paid for by bank transfer,
// with no saved card of its own, gets its renewal invoiced 14 days ahead, so that "payable within 14 days" lands on
// the renewal date. The invoice is a pending bank transfer for the renewal (purpose mail_subscription_renewal) and a
// renewal change being paid for (`charging`): the partial unique index on one charging change per subscription is
// what issues it once per renewal however many instances run the job, and its terms hold until it is paid, voided or
// has expired (changes are refused meanwhile, as while a card is charged).

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long before the renewal its invoice is issued: its payment term, so it is due on the renewal date. */
const RENEWAL_INVOICE_DAYS_AHEAD = 14;
/** A renewal invoice lapses 30 days after its issue, as every bank transfer (after the last retry: see the job). */
const EXPIRES_AFTER_DAYS = 30;

/**
 * `nothing_due`: the credit balance pays the renewal; `left_for_later`: its organization is being retired (or was: the
 * subscription has just been ended instead).
 */
export type RenewalInvoiceStep = 'issued' | 'nothing_due' | 'left_for_later';

/**
 * One short transaction of the renewal job: takes the subscription owed a renewal invoice with the soonest renewal
 * and issues it (the pending bank transfer, its start in the audit log, the renewal change it pays for and the
 * invoice, whose issue tells the members). `nothing_due` when the credit balance pays the whole renewal (the renewal
 * job renews it from credit then); undefined when none is owed one.
 */
export async function issueNextRenewalInvoice(
  tx: Transaction,
  context: { now: Date; invoices: InvoiceIssuer; skip: readonly string[] },
): Promise<{ step: RenewalInvoiceStep; subscriptionId: string } | undefined> {
  const { now } = context;
  const until = new Date(now.getTime() + RENEWAL_INVOICE_DAYS_AHEAD * DAY_MS);
  const subscription = await lockNextRenewalToInvoice(tx, now, until, context.skip);
  if (subscription === undefined) return undefined;
  // A retired organization is never invoiced (docs/decisions.md#retired-organizations-take-no-money).
  if ((await standingOfClaimed(tx, subscription, now)) !== 'open') {
    return { step: 'left_for_later', subscriptionId: subscription.id };
  }
  const values = renewalValues(subscription);
  if (values.amountDue === 0) return { step: 'nothing_due', subscriptionId: subscription.id };

  const payment = await insertPendingPayment(tx, {
    reference: newPaymentReference(),
    organizationId: subscription.organizationId,
    userId: null,
    method: 'bank_transfer',
    channel: 'bank_transfer',
    purpose: 'mail_subscription_renewal',
    provider: 'bank_transfer',
    amount: values.amountDue,
    phone: null,
    paymentMethodId: null,
    plan: values.plan,
    seats: values.seats,
    billingCycle: values.billingCycle,
    accountReference: newTransferReference(),
    nextCheckAt: new Date(now.getTime() + EXPIRES_AFTER_DAYS * DAY_MS),
    createdAt: now,
  });
  await recordAuditEvent(tx, PLATFORM_JOB, paymentStarted(payment));
  await insertChange(tx, { ...values, status: 'charging', baseVersion: subscription.version, paymentId: payment.id });
  await context.invoices.issueInvoice(
    tx,
    payment,
    { dueAt: subscription.currentPeriodEnd, expiresAt: payment.nextCheckAt ?? subscription.currentPeriodEnd },
    now,
  );
  return { step: 'issued', subscriptionId: subscription.id };
}

/** Whether a renewal change is paid by a bank transfer that arrived before the period it pays for starts. */
export function isPaidAhead(change: MailSubscriptionChange, payment: Payment, at: Date): boolean {
  return change.kind === 'renewal' && payment.channel === 'bank_transfer' && change.periodStart > at;
}

/**
 * A renewal invoice not paid by the renewal date stays payable while the renewal is retried: the failure moved the
 * subscription to a new version (past_due, its next retry), not its terms or period, so the change follows it.
 */
export function keepInvoicePayable(tx: Transaction, change: MailSubscriptionChange, version: number): Promise<void> {
  return rebaseChange(tx, change.id, version);
}

/**
 * Voids a renewal invoice no longer wanted (the subscription was set to cancel, or it ended unpaid): the change ends
 * as failed first, so that the payment's failure hook finds nothing left to do, then the pending transfer is
 * canceled through the settlement every payment uses (its status change and audit record). Runs with the payment and
 * the change locked (payment first, as confirmations lock them).
 */
export async function voidRenewalInvoice(
  tx: Transaction,
  ctx: SettlementContext,
  invoice: { change: MailSubscriptionChange; payment: Payment },
  reason: string,
  now: Date,
): Promise<void> {
  await finishChange(tx, invoice.change, { status: 'failed', at: now, failureReason: reason });
  await settleFoundPayment(tx, ctx, invoice.payment, { status: 'cancelled', source: 'subscription', reason }, now);
}
