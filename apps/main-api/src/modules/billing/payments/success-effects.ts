import { notifyUser, type Payment, payments, topUpWallet, type Transaction } from '@platform/db';
import { eq } from 'drizzle-orm';
import { saveCard, saveMobileMoneyNumber } from '../payment-methods/repository.js';
import type { ReusableCard } from '../providers/ports.js';
import type { PaymentSuccessHooks } from './hooks.js';

/** Wallet top-ups credit the live wallet: test-environment balances are topped up by the wallets command. */
export const TOP_UP_ENVIRONMENT = 'live';

/**
 * What a successful payment causes, run inside the transaction that records the success: the wallet is
 * credited (top-ups) or the subscription started (purchases, through the hook), the card or M-Pesa number
 * is saved for next time, and the paying user is notified.
 */
export async function applySuccessEffects(
  tx: Transaction,
  payment: Payment,
  context: { reusableCard: ReusableCard | undefined; now: Date; hooks: PaymentSuccessHooks },
): Promise<void> {
  if (payment.purpose === 'wallet_topup') {
    await topUpWallet(
      tx,
      { organizationId: payment.organizationId, environment: TOP_UP_ENVIRONMENT },
      { amount: payment.amount, reference: `payment:${payment.reference}`, description: `Wallet top-up ${payment.reference}` },
    );
  } else {
    await context.hooks.onMailSubscriptionPaid(tx, payment);
  }

  const savedMethodId = await saveMethod(tx, payment, context);
  if (savedMethodId !== undefined && payment.paymentMethodId === null) {
    await tx.update(payments).set({ paymentMethodId: savedMethodId }).where(eq(payments.id, payment.id));
  }

  if (payment.userId !== null) {
    await notifyUser(tx, {
      userId: payment.userId,
      organizationId: payment.organizationId,
      type: 'success',
      title: 'Payment received',
      message: `${describePurpose(payment)}: KES ${payment.amount.toLocaleString('en-KE')} received (${payment.reference}).`,
      actionUrl: null,
    });
  }
}

async function saveMethod(
  tx: Transaction,
  payment: Payment,
  context: { reusableCard: ReusableCard | undefined; now: Date },
): Promise<string | undefined> {
  const by = { organizationId: payment.organizationId, userId: payment.userId, provider: payment.provider, now: context.now };
  if (payment.channel === 'mobile_money' && payment.phone !== null) return saveMobileMoneyNumber(tx, payment.phone, by);
  if (payment.channel === 'card' && context.reusableCard !== undefined) return saveCard(tx, context.reusableCard, by);
  return undefined;
}

function describePurpose(payment: Payment): string {
  if (payment.purpose === 'wallet_topup') return 'Wallet top-up';
  return `Mail subscription (${payment.plan}, ${payment.seats} seats, ${payment.billingCycle})`;
}
