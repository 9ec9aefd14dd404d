import { type RenewalOutcome, renewNextDueSubscription, type SubscriptionDeps } from './service.js';

export interface RenewalDeps extends SubscriptionDeps {
  /** Subscriptions taken per round. */
  batchSize?: number;
}

const DEFAULT_BATCH_SIZE = 50;

export interface RenewalRound extends Record<RenewalOutcome, number> {
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
 * One round of the renewal job (docs/decisions.md#renewal-job): renews due subscriptions one at a time, each
 * claimed in its own short transaction, until none is due or the batch is done. Several instances may run
 * rounds at once.
 */
export async function renewDueSubscriptions(deps: RenewalDeps): Promise<RenewalRound> {
  const round: RenewalRound = { renewed: 0, failed: 0, expired: 0, pending: 0 };
  for (let taken = 0; taken < (deps.batchSize ?? DEFAULT_BATCH_SIZE); taken += 1) {
    const outcome = await renewNextDueSubscription(deps);
    if (outcome === undefined) break;
    round[outcome] += 1;
  }
  if (round.renewed + round.failed + round.expired + round.pending > 0) {
    deps.ctx.log.info(round, 'Mail subscription renewals ran');
  }
  return round;
}
