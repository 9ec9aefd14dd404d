import type { Payment, Transaction } from '@platform/db';
import { PLATFORM_JOB } from '../../audit/index.js';
import type { PaidFor, PaymentHooks } from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { paymentCreditReference } from './credit-balance.js';
import { findCreditedPayment } from './credit-balance-repository.js';
import { creditPayment } from './credit-payment.js';
import { activatePurchasedSubscription, addedToCredit, periodPaid, purchasedPeriod } from './purchase.js';
import { isPaidAhead } from './renew-invoice.js';
import { recordFailedRenewal } from './renew-retries.js';
import {
  findChangeOfPayment,
  finishChange,
  lockChangeOfPayment,
  lockSubscription,
  lockSubscriptionById,
} from './repository.js';

// Subscriptions' side of payments' PaymentHooks port: what a payment's outcome does here, run by payments in the
// transaction that records it (so it happens exactly once, or not at all), whoever reports the outcome (the request
// that charged, the webhook, or the reconciliation job after a crash); and, for the receipt of a payment that succeeded
// before receipts existed, what it paid for.

/**
 * What payments do to mail subscriptions: purchases start them, card charges apply changes and renewals, money paid
 * beyond a payment's amount goes to the credit balance; and what an earlier payment paid for, for its receipt.
 */
export const subscriptionPaymentHooks: PaymentHooks = {
  onMailSubscriptionPaid: activatePurchasedSubscription,
  onSubscriptionChargePaid: applyPaidCharge,
  onSubscriptionChargeFailed: releaseFailedCharge,
  onSubscriptionPaymentExcess: creditPaymentExcess,
  paidForEarlierPayment,
};

// A change or renewal paid by card, or a renewal invoice paid by bank transfer: this is the second transaction of the
// change, after its claim (change-plan.ts, renew.ts) and the charge made outside any transaction.

/** What a charge paid for when the subscription it was for no longer exists. */
const SUBSCRIPTION_GONE: PaidFor = {
  kind: 'not_applied',
  note: 'The subscription it was for no longer exists.',
};

/**
 * The card paid: the claimed change applies if the subscription is still in the state it was priced on.
 * Otherwise (the subscription changed meanwhile, or the charge had already been given up as failed) the money
 * is not lost: it goes to the credit balance. Says what the payment paid for: the change's period, or the credit.
 */
async function applyPaidCharge(tx: Transaction, payment: Payment): Promise<PaidFor> {
  const change = await lockChangeOfPayment(tx, payment.id);
  if (change === undefined) throw new Error(`Payment ${payment.reference} pays for no subscription change`);
  const subscription = await lockSubscriptionById(tx, change.subscriptionId);
  if (subscription === undefined) return SUBSCRIPTION_GONE;
  const at = payment.completedAt ?? payment.updatedAt;

  // A renewal invoice paid before the renewal date: the renewal job applies it on that date, not now, so the current
  // period (and a downgrade scheduled for its end) runs its course (docs/decisions.md#renewal-invoices).
  if (change.status === 'charging' && isPaidAhead(change, payment, at)) {
    return changePeriodPaid(change);
  }
  if (
    change.status === 'charging' &&
    // Applied when the payment settles, whoever reports it: the platform's doing, on the member's request.
    (await applyChange(tx, subscription, change, PLATFORM_JOB, {
      paidWithCardId: payment.paymentMethodId,
      paymentReference: payment.reference,
      byTransfer: payment.channel === 'bank_transfer',
    }))
  ) {
    await finishChange(tx, change, { status: 'applied', at });
    return changePeriodPaid(change);
  }
  const why =
    change.status === 'charging'
      ? 'The subscription changed while the card was being charged'
      : 'The card payment went through after the change had been given up';
  if (change.status === 'charging') await finishChange(tx, change, { status: 'superseded', at, failureReason: why });
  await creditPayment(tx, subscription, payment, { amount: payment.amount, reason: 'unapplied_charge', why });
  return addedToCredit(why);
}

/**
 * The card did not pay (declined, refused, cancelled or timed out): the claim is released and the subscription
 * stays as it was. A renewal that was not paid makes the subscription past_due, or counts as a failed retry, or ends
 * it (the last retry, or one set to cancel: docs/decisions.md#renewal-retries).
 */
async function releaseFailedCharge(tx: Transaction, payment: Payment): Promise<void> {
  const change = await lockChangeOfPayment(tx, payment.id);
  if (change === undefined || change.status !== 'charging') return;
  const at = payment.completedAt ?? payment.updatedAt;
  const reason = payment.failureReason ?? `the card payment ${payment.status}`;
  await finishChange(tx, change, { status: 'failed', at, failureReason: reason });
  if (change.kind !== 'renewal') return;
  const subscription = await lockSubscriptionById(tx, change.subscriptionId);
  if (subscription !== undefined) await recordFailedRenewal(tx, subscription, change.baseVersion, reason, at);
}

const TRANSFER_EXCESS = 'More was received by bank transfer than the invoice asked for';

/**
 * The hook for money received beyond a subscription payment's amount (docs/decisions.md#split-bank-transfers): the
 * excess is added to the organization's credit balance (reason `transfer_excess`, once per payment), which pays later
 * subscription charges, and the members are told. The payment has just been applied, so the subscription row exists
 * (a purchase creates it); it is locked, as every credit movement is.
 */
async function creditPaymentExcess(tx: Transaction, payment: Payment, excess: number): Promise<void> {
  const subscription = await lockSubscription(tx, payment.organizationId);
  if (subscription === undefined) {
    throw new Error(`Payment ${payment.reference} was applied to a subscription that does not exist`);
  }
  await creditPayment(tx, subscription, payment, { amount: excess, reason: 'transfer_excess', why: TRANSFER_EXCESS });
}

/** Why a payment's money went to the credit balance, for a movement recorded without a description. */
const CREDITED_WITHOUT_REASON = 'The payment could not be applied to what it was for';

/**
 * What a mail subscription payment that succeeded before receipts existed paid for, read back from what its success
 * left behind, as the purchase and charge hooks said it then (docs/decisions.md#receipts-for-earlier-payments): its
 * money added to the credit balance (its credit movement says why); else a change's or renewal's period (its change
 * row), a change whose subscription is gone (its change row went with it), or a purchase's first period, which starts on
 * the UTC day it was paid (activatePurchasedSubscription). Reads only.
 */
async function paidForEarlierPayment(tx: Transaction, payment: Payment): Promise<PaidFor> {
  const credited = await findCreditedPayment(tx, paymentCreditReference(payment));
  if (credited !== undefined) return addedToCredit(credited.description ?? CREDITED_WITHOUT_REASON);
  if (payment.purpose !== 'mail_subscription') {
    const change = await findChangeOfPayment(tx, payment.id);
    return change === undefined ? SUBSCRIPTION_GONE : changePeriodPaid(change);
  }
  return periodPaid(purchasedPeriod(payment));
}

/** A change's or renewal's period, as a receipt says what the payment paid for. */
function changePeriodPaid(change: { periodStart: Date; periodEnd: Date }): PaidFor {
  return periodPaid({ start: change.periodStart, end: change.periodEnd });
}
