import { conflict, paymentFailed } from '@platform/errors';
import type { SubscriptionTerms } from '@platform/pricing';
import type { PaymentsConfig } from '../config.js';
import { formatKes } from '../html.js';
import { chargeSavedCardPayment } from '../payments/charge-saved-card.js';
import type { SettlementContext } from '../payments/settle.js';
import type { PaymentProviders } from '../providers/from-config.js';
import { claimChange } from './change-claim.js';
import { subscriptionChanged } from './notifications.js';
import { findChange } from './repository.js';

export interface SubscriptionDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
}

export interface UpgradeResult {
  /** 200 when the change applied; 202 when the card provider has not confirmed the charge yet. */
  statusCode: 200 | 202;
  message: string;
}

/**
 * POST /v1/billing/upgrade (spec 4.9): claim the change in one short transaction (claimChange), charge the
 * saved card outside any transaction, and apply the change in the transaction that records the payment's
 * success (the payment hooks). A declined card is 402 payment_failed and leaves the subscription as it was.
 */
export async function upgradeSubscription(
  deps: SubscriptionDeps,
  requester: { organizationId: string; userId: string },
  next: SubscriptionTerms,
  paymentMethodId: string | undefined,
): Promise<UpgradeResult> {
  const { ctx } = deps;
  const claim = await ctx.db.transaction((tx) =>
    claimChange(
      tx,
      { ...requester, next, ...(paymentMethodId === undefined ? {} : { paymentMethodId }) },
      { now: ctx.now(), card: deps.providers.card, config: deps.config },
    ),
  );
  if (claim.kind === 'applied') return { statusCode: 200, message: messageOf(subscriptionChanged(claim.change)) };

  const payment = await chargeSavedCardPayment(ctx, deps.providers.card, claim.payment, claim.card);
  const change = (await findChange(ctx.db, claim.change.id)) ?? claim.change;
  switch (change.status) {
    case 'applied':
      return { statusCode: 200, message: messageOf(subscriptionChanged(change, payment.reference)) };
    case 'charging':
      return {
        statusCode: 202,
        message: `The card payment (${payment.reference}) is being confirmed; the change applies as soon as it succeeds.`,
      };
    case 'superseded':
      throw conflict(
        `The subscription changed while the card was being charged: ${formatKes(payment.amount)} (${payment.reference}) ` +
          'was added to the credit balance instead',
      );
    case 'failed':
      throw paymentFailed(
        `The card payment did not go through: ${payment.failureReason ?? payment.status}. The subscription is unchanged`,
      );
  }
}

function messageOf(content: { title: string; message: string }): string {
  return `${content.title}. ${content.message}`;
}
