import type { Payment, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { PLATFORM_JOB } from '../../audit/index.js';
import type { PaidFor } from '../payments/index.js';
import { applyChange } from './apply-change.js';
import { addCredit, paymentCreditReference } from './credit-balance.js';
import { paymentCredited } from './notifications.js';
import { addedToCredit } from './purchase.js';
import { isPaidAhead } from './renewal-invoice.js';
import { recordFailedRenewal } from './renewal-retries.js';
import { finishChange, lockChangeOfPayment, lockSubscriptionById } from './repository.js';

// The second transaction of a change or renewal paid by card: run by settlePayment when the card charge
// ends, in the transaction that records it, whoever reports the outcome (the request that charged, or the
// reconciliation job after a crash).

/** What a charge paid for when the subscription it was for no longer exists. */
export const SUBSCRIPTION_GONE: PaidFor = {
  kind: 'not_applied',
  note: 'The subscription it was for no longer exists.',
};

/**
 * The card paid: the claimed change applies if the subscription is still in the state it was priced on.
 * Otherwise (the subscription changed meanwhile, or the charge had already been given up as failed) the money
 * is not lost: it goes to the credit balance. Says what the payment paid for: the change's period, or the credit.
 */
export async function applyPaidCharge(tx: Transaction, payment: Payment): Promise<PaidFor> {
  const change = await lockChangeOfPayment(tx, payment.id);
  if (change === undefined) throw new Error(`Payment ${payment.reference} pays for no subscription change`);
  const subscription = await lockSubscriptionById(tx, change.subscriptionId);
  if (subscription === undefined) return SUBSCRIPTION_GONE;
  const at = payment.completedAt ?? payment.updatedAt;

  // A renewal invoice paid before the renewal date: the renewal job applies it on that date, not now, so the current
  // period (and a downgrade scheduled for its end) runs its course (docs/decisions.md#renewal-invoices).
  if (change.status === 'charging' && isPaidAhead(change, payment, at)) {
    return { kind: 'period', start: change.periodStart, end: change.periodEnd };
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
    return { kind: 'period', start: change.periodStart, end: change.periodEnd };
  }
  const why =
    change.status === 'charging'
      ? 'The subscription changed while the card was being charged'
      : 'The card payment went through after the change had been given up';
  if (change.status === 'charging') await finishChange(tx, change, { status: 'superseded', at, failureReason: why });
  const credited = await addCredit(tx, subscription, {
    amount: payment.amount,
    reason: 'unapplied_charge',
    reference: paymentCreditReference(payment),
    description: why,
  });
  if (credited) {
    await notifyOrganizationMembers(
      tx,
      subscription.organizationId,
      paymentCredited(payment.amount, payment.reference, why),
    );
  }
  return addedToCredit(why);
}

/**
 * The card did not pay (declined, refused, cancelled or timed out): the claim is released and the subscription
 * stays as it was. A renewal that was not paid makes the subscription past_due, or counts as a failed retry, or ends
 * it (the last retry, or one set to cancel: docs/decisions.md#renewal-retries).
 */
export async function releaseFailedCharge(tx: Transaction, payment: Payment): Promise<void> {
  const change = await lockChangeOfPayment(tx, payment.id);
  if (change === undefined || change.status !== 'charging') return;
  const at = payment.completedAt ?? payment.updatedAt;
  const reason = payment.failureReason ?? `the card payment ${payment.status}`;
  await finishChange(tx, change, { status: 'failed', at, failureReason: reason });
  if (change.kind !== 'renewal') return;
  const subscription = await lockSubscriptionById(tx, change.subscriptionId);
  if (subscription !== undefined) await recordFailedRenewal(tx, subscription, change.baseVersion, reason, at);
}
