import type { Payment, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { addCredit } from './credit-balance.js';
import { paymentCredited } from './notifications.js';
import { lockSubscription } from './repository.js';

const WHY = 'More was received by bank transfer than the invoice asked for';

/**
 * The hook for money received beyond a subscription payment's amount (docs/decisions.md#split-bank-transfers): the
 * excess is added to the organization's credit balance (reason `transfer_excess`, once per payment), which pays later
 * subscription charges, and the members are told. The payment has just been applied, so the subscription row exists
 * (a purchase creates it); it is locked, as every credit movement is.
 */
export async function creditPaymentExcess(tx: Transaction, payment: Payment, excess: number): Promise<void> {
  const subscription = await lockSubscription(tx, payment.organizationId);
  if (subscription === undefined) {
    throw new Error(`Payment ${payment.reference} was applied to a subscription that does not exist`);
  }
  const credited = await addCredit(tx, subscription, {
    amount: excess,
    reason: 'transfer_excess',
    reference: `payment:${payment.reference}`,
    description: WHY,
  });
  if (credited) {
    await notifyOrganizationMembers(tx, payment.organizationId, paymentCredited(excess, payment.reference, WHY));
  }
}
