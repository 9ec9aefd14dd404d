import type { CreditBalanceReason, MailSubscription, Payment, Transaction } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { addCredit, paymentCreditReference } from './credit-balance.js';
import { paymentCredited } from './notifications.js';

/**
 * Adds `amount` of a payment's money to the organization's credit balance, once per payment (the movement's reference
 * is the payment's), and tells the members when it was added now: a payment credited before changes nothing.
 */
export async function creditPayment(
  tx: Transaction,
  subscription: MailSubscription,
  payment: Pick<Payment, 'reference'>,
  { amount, reason, why }: { amount: number; reason: CreditBalanceReason; why: string },
): Promise<void> {
  const credited = await addCredit(tx, subscription, {
    amount,
    reason,
    reference: paymentCreditReference(payment),
    description: why,
  });
  if (credited) {
    await notifyOrganizationMembers(tx, subscription.organizationId, paymentCredited(amount, payment.reference, why));
  }
}
