import type { Payment, Transaction } from '@platform/db';
import { topUpWallet } from '@platform/ledger';
import { notifyOrganizationMembers } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import type { SettlementContext } from '../payments/index.js';

/** Where money received beyond an invoice's amount went (docs/decisions.md#split-bank-transfers). */
export type ExcessDestination = 'credit_balance' | 'wallet';

/**
 * Applies what bank transfers brought in beyond their invoice, in the transaction that applied the invoice: a
 * subscription's (purchase, change or renewal) goes to the organization's credit balance, through the subscription
 * hook; a wallet top-up's to the same live wallet the top-up credited, as a movement of its own (reference
 * `transfer_excess:<payment reference>`, once), so the top-up itself is credited with its invoice's amount as every
 * top-up is and the wallet statement shows the excess apart. The members are told either way.
 */
export async function applyTransferExcess(
  tx: Transaction,
  ctx: SettlementContext,
  payment: Payment,
  excess: number,
): Promise<ExcessDestination> {
  if (payment.purpose !== 'wallet_topup') {
    await ctx.hooks.onSubscriptionPaymentExcess(tx, payment, excess);
    return 'credit_balance';
  }
  const credited = await topUpWallet(
    tx,
    { organizationId: payment.organizationId, environment: 'live' },
    {
      amount: excess,
      reference: `transfer_excess:${payment.reference}`,
      description: `Bank transfer beyond invoice ${payment.reference}`,
    },
  );
  if (credited.applied) {
    await notifyOrganizationMembers(tx, payment.organizationId, {
      type: 'info',
      title: 'Transfer excess added to your wallet',
      message:
        `More was received by bank transfer than the invoice for ${payment.reference} asked for, so ` +
        `${formatKes(excess)} was added to your wallet as well.`,
      // The dashboard's Billing page (docs/decisions.md#dashboard-pages).
      actionUrl: '/dashboard/billing',
    });
  }
  return 'wallet';
}
