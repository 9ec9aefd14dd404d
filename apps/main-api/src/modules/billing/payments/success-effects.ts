import type { Payment, Transaction } from '@platform/db';
import { topUpWallet } from '@platform/ledger';
import { notifyUser } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import { saveCard, saveMobileMoneyNumber } from '../payment-methods/index.js';
import { isSubscriptionCharge, type PaidFor, type PaymentHooks } from './payment-hooks.js';
import type { ReusableCard } from './provider-port.js';
import type { ReceiptIssuer } from './receipt-issuer.js';
import { linkPaymentMethod } from './repository.js';

/** Wallet top-ups credit the live wallet: test-environment balances are topped up by the wallets command. */
const TOP_UP_ENVIRONMENT = 'live';

/**
 * What a successful payment causes, run inside the transaction that records the success: the card or
 * M-Pesa number is saved for next time, the wallet is credited (top-ups) or the subscription module does
 * its part through the hooks (purchases, changes, renewals), the paying user is notified, and the receipt is
 * issued, last: its number is taken from a counter locked until the transaction ends, so the lock is held as
 * briefly as it can be (docs/decisions.md#billing-documents).
 */
export async function applySuccessEffects(
  tx: Transaction,
  payment: Payment,
  context: { reusableCard: ReusableCard | undefined; now: Date; hooks: PaymentHooks; receipts: ReceiptIssuer },
): Promise<void> {
  // Saved first, so the subscription hooks see the card a purchase was paid with (renewals charge it).
  const savedMethodId = await saveMethod(tx, payment, context);
  const paid =
    savedMethodId !== undefined && payment.paymentMethodId === null
      ? await linkMethod(tx, payment, savedMethodId)
      : payment;

  const paidFor = await applyPurpose(tx, paid, context.hooks);

  if (paid.userId !== null) {
    await notifyUser(tx, {
      userId: paid.userId,
      organizationId: paid.organizationId,
      type: 'success',
      title: 'Payment received',
      message: `${describePurpose(paid)}: ${formatKes(paid.amount)} received (${paid.reference}).`,
      // The dashboard's Billing page (docs/decisions.md#dashboard-pages).
      actionUrl: '/dashboard/billing',
    });
  }
  await context.receipts.issueReceipt(tx, paid, paidFor, context.now);
}

/** Credits the wallet (top-ups) or lets the subscription module apply what was bought; says what was paid for. */
async function applyPurpose(tx: Transaction, paid: Payment, hooks: PaymentHooks): Promise<PaidFor> {
  if (paid.purpose === 'wallet_topup') {
    await topUpWallet(
      tx,
      { organizationId: paid.organizationId, environment: TOP_UP_ENVIRONMENT },
      { amount: paid.amount, reference: `payment:${paid.reference}`, description: `Wallet top-up ${paid.reference}` },
    );
    return { kind: 'top_up' };
  }
  return isSubscriptionCharge(paid) ? hooks.onSubscriptionChargePaid(tx, paid) : hooks.onMailSubscriptionPaid(tx, paid);
}

async function saveMethod(
  tx: Transaction,
  payment: Payment,
  context: { reusableCard: ReusableCard | undefined; now: Date },
): Promise<string | undefined> {
  const by = {
    organizationId: payment.organizationId,
    userId: payment.userId,
    provider: payment.provider,
    now: context.now,
  };
  if (payment.channel === 'mobile_money' && payment.phone !== null) return saveMobileMoneyNumber(tx, payment.phone, by);
  if (payment.channel === 'card' && context.reusableCard !== undefined) return saveCard(tx, context.reusableCard, by);
  return undefined;
}

async function linkMethod(tx: Transaction, payment: Payment, paymentMethodId: string): Promise<Payment> {
  return (await linkPaymentMethod(tx, payment.id, paymentMethodId)) ?? payment;
}

function describePurpose(payment: Payment): string {
  const terms = `${payment.plan}, ${payment.seats} seats, ${payment.billingCycle}`;
  switch (payment.purpose) {
    case 'wallet_topup':
      return 'Wallet top-up';
    case 'mail_subscription':
      return `Mail subscription (${terms})`;
    case 'mail_subscription_change':
      return `Mail subscription change (${terms})`;
    case 'mail_subscription_renewal':
      return `Mail subscription renewal (${terms})`;
  }
}
