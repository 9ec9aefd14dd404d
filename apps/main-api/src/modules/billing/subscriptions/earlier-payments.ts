import type { Payment, Transaction } from '@platform/db';
import type { PaidFor } from '../payments/index.js';
import { SUBSCRIPTION_GONE } from './charge-hooks.js';
import { paymentCreditReference } from './credit-balance.js';
import { findCreditedPayment } from './credit-balance-repository.js';
import { addedToCredit, purchasedPeriod } from './purchase.js';
import { findChangeOfPayment } from './repository.js';

/** Why a payment's money went to the credit balance, for a movement recorded without a description. */
const CREDITED_WITHOUT_REASON = 'The payment could not be applied to what it was for';

/**
 * What a mail subscription payment that succeeded before receipts existed paid for, read back from what its success
 * left behind, as the purchase and charge hooks said it then (docs/decisions.md#receipts-for-earlier-payments): its
 * money added to the credit balance (its credit movement says why); else a change's or renewal's period (its change
 * row), a change whose subscription is gone (its change row went with it), or a purchase's first period, which starts on
 * the UTC day it was paid (activatePurchasedSubscription). Reads only.
 */
export async function paidForEarlierPayment(tx: Transaction, payment: Payment): Promise<PaidFor> {
  const credited = await findCreditedPayment(tx, paymentCreditReference(payment));
  if (credited !== undefined) return addedToCredit(credited.description ?? CREDITED_WITHOUT_REASON);
  if (payment.purpose !== 'mail_subscription') {
    const change = await findChangeOfPayment(tx, payment.id);
    return change === undefined
      ? SUBSCRIPTION_GONE
      : { kind: 'period', start: change.periodStart, end: change.periodEnd };
  }
  const period = purchasedPeriod(payment);
  return { kind: 'period', start: period.start, end: period.end };
}
