import { isAppError } from '@platform/errors';
import type { PaymentsConfig } from '../config.js';
import { chargeSavedCardPayment } from '../payments/charge-saved-card.js';
import type { PaymentProviders } from '../payments/index.js';
import type { SettlementContext } from '../payments/settle.js';
import { takeNextDueRenewal } from './renewal-claim.js';

export interface RenewalDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
  /** Subscriptions taken per round. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 50;

export interface RenewalRound {
  /** Moved to their next period (paid by card, or from credit). */
  renewed: number;
  /** Not paid: past_due. */
  failed: number;
  /** Past due beyond the grace period: ended. */
  expired: number;
  /** Charged, but the card provider has not answered finally yet (the reconciliation job settles them). */
  pending: number;
}

/**
 * One round of the renewal job: takes due subscriptions one at a time, each in its own short transaction
 * (takeNextDueRenewal), and charges the ones that need a card outside any transaction; the charge settles
 * through the payment hooks, which move the period or make the subscription past_due. Several instances
 * may run rounds at once: each subscription is claimed, and so charged, by one of them.
 */
export async function renewDueSubscriptions(deps: RenewalDeps): Promise<RenewalRound> {
  const round: RenewalRound = { renewed: 0, failed: 0, expired: 0, pending: 0 };
  for (let taken = 0; taken < (deps.batchSize ?? DEFAULT_BATCH_SIZE); taken += 1) {
    const now = deps.ctx.now();
    const step = await deps.ctx.db.transaction((tx) =>
      takeNextDueRenewal(tx, { now, card: deps.providers.card, config: deps.config }),
    );
    if (step === undefined) break;
    if (step.kind !== 'charge') {
      round[step.kind] += 1;
      continue;
    }
    try {
      const payment = await chargeSavedCardPayment(deps.ctx, deps.providers.card, step.payment, step.card);
      if (payment.status === 'succeeded') round.renewed += 1;
      else if (payment.status === 'pending') round.pending += 1;
      else round.failed += 1;
    } catch (error) {
      // The provider refused or could not be reached: the payment has ended and the subscription is past_due.
      if (!isAppError(error)) throw error;
      deps.ctx.log.warn({ err: error, reference: step.payment.reference }, 'A renewal charge did not go through');
      round.failed += 1;
    }
  }
  if (round.renewed + round.failed + round.expired + round.pending > 0) {
    deps.ctx.log.info(round, 'Mail subscription renewals ran');
  }
  return round;
}
