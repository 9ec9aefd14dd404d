import type { MailSubscriptionChange, Payment } from '@platform/db';
import { conflict, paymentFailed } from '@platform/errors';
import type { IdempotencyContext } from '@platform/idempotency';
import type { SubscriptionTerms } from '@platform/pricing';
import { formatKes } from '@platform/pricing';
import type { PaymentsConfig } from '../config.js';
import { earlierAttemptOf, startedByOf } from '../payments/attempts.js';
import { chargeSavedCard } from '../payments/charge-saved-card.js';
import type { SettlementContext } from '../payments/settle.js';
import { confirmationDelayOf } from '../payments/start-payment.js';
import type { PaymentProviders } from '../providers/from-config.js';
import { claimChange } from './change-claim.js';
import { subscriptionChanged } from './notifications.js';
import { findChange, findChangeOfPayment } from './repository.js';

export interface SubscriptionDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
}

export interface UpgradeResult {
  /** 200 when the change applied; 202 when the card provider has not confirmed the charge yet. */
  statusCode: 200 | 202;
  message: string;
  /** The answer of an earlier request with the same idempotency key, rebuilt from where its change stands now. */
  replayed: boolean;
}

/**
 * POST /v1/billing/upgrade (spec 4.9): claim the change in one short transaction (claimChange), charge the
 * saved card outside any transaction, and apply the change in the transaction that records the payment's
 * success (the payment hooks). A declined card is 402 payment_failed and leaves the subscription as it was.
 *
 * A charge not confirmed yet (the provider says pending, or its answer never came: the charge may have been
 * made) answers 202 and the change applies when the reconciliation job or the webhook settles the payment.
 * That 202 is not stored for replay (`skipStoring`): a retry with the same key finds the payment its key
 * started and answers from where the change stands then (202 while charging, 200 once applied), and charges
 * nothing again.
 */
export async function upgradeSubscription(
  deps: SubscriptionDeps,
  requester: { organizationId: string; userId: string },
  next: SubscriptionTerms,
  paymentMethodId: string | undefined,
  idempotency?: IdempotencyContext,
): Promise<UpgradeResult> {
  const { ctx } = deps;
  const startedBy = startedByOf(idempotency);
  const earlier = await earlierAttemptOf(ctx.db, requester.organizationId, startedBy, ctx.now());
  if (earlier.kind !== 'none') {
    const change = await findChangeOfPayment(ctx.db, earlier.payment.id);
    if (change !== undefined) return answer(change, earlier.payment, { replayed: true, idempotency });
  }

  const claim = await ctx.db.transaction((tx) =>
    claimChange(
      tx,
      {
        ...requester,
        next,
        ...(paymentMethodId === undefined ? {} : { paymentMethodId }),
        ...(startedBy === undefined ? {} : { startedBy }),
      },
      { now: ctx.now(), card: deps.providers.card, config: deps.config },
    ),
  );
  if (claim.kind === 'applied') {
    return { statusCode: 200, message: messageOf(subscriptionChanged(claim.change)), replayed: false };
  }

  const charged = await chargeSavedCard(ctx, deps.providers.card, claim.payment, claim.card, {
    confirmAfterMs: confirmationDelayOf(deps.config),
  });
  const change = (await findChange(ctx.db, claim.change.id)) ?? claim.change;
  return answer(change, charged.payment, { replayed: false, idempotency });
}

/** The answer for a change paid by `payment`, from where both stand now. */
function answer(
  change: MailSubscriptionChange,
  payment: Payment,
  options: { replayed: boolean; idempotency: IdempotencyContext | undefined },
): UpgradeResult {
  const { replayed } = options;
  switch (change.status) {
    case 'applied':
      return { statusCode: 200, message: messageOf(subscriptionChanged(change, payment.reference)), replayed };
    case 'charging':
      // Still changing: a retry must answer from the state then, not replay this.
      options.idempotency?.skipStoring();
      return {
        statusCode: 202,
        message: `The card payment (${payment.reference}) is being confirmed; the change applies as soon as it succeeds.`,
        replayed,
      };
    case 'superseded':
      throw conflict(
        `The subscription changed while the card was being charged: ${formatKes(payment.amount)} (${payment.reference}) ` +
          'was added to the credit balance instead',
      );
    case 'failed':
      if (payment.status === 'succeeded') {
        throw conflict(
          `The card payment (${payment.reference}) went through after the change had been given up: ` +
            `${formatKes(payment.amount)} was added to the credit balance instead`,
        );
      }
      throw paymentFailed(
        `The card payment did not go through: ${payment.failureReason ?? payment.status}. The subscription is unchanged`,
      );
  }
}

function messageOf(content: { title: string; message: string }): string {
  return `${content.title}. ${content.message}`;
}
