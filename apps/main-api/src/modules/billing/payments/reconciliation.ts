import type { Payment } from '@platform/db';
import type { PaymentsConfig } from '../config.js';
import { ProviderRejectedError, ProviderUnavailableError } from '../providers/errors.js';
import { cardProviderNamed, mobileMoneyProviderNamed, type PaymentProviders } from '../providers/from-config.js';
import type { ProviderOutcome } from '../providers/ports.js';
import { claimPaymentsDueForCheck } from './repository.js';
import { settlePayment, type SettlementContext } from './settle.js';

export interface ReconciliationDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
  /** Payments claimed per round. */
  batchSize?: number;
}

/** A payment the provider still has not settled is asked about again after this long. */
export const RECHECK_AFTER_MS = 60_000;
const DEFAULT_BATCH_SIZE = 50;

export interface ReconciliationRound {
  checked: number;
  /** Payments whose status changed. */
  settled: number;
}

/**
 * One round of the reconciliation job: claims pending payments due for a check (FOR UPDATE SKIP LOCKED, so
 * instances share the work), asks each one's provider about it outside any transaction, and settles it
 * through the same code as the provider's callbacks. M-Pesa prompts are queried (Daraja's STK query; "being
 * processed" keeps them pending) and expire when no result comes within MOBILE_MONEY_EXPIRE_AFTER_MS; card
 * payments are looked up and expire when the checkout is not completed within CARD_CHECKOUT_EXPIRE_AFTER_MS.
 * An expired payment still succeeds if the provider later reports a success.
 */
export async function reconcilePayments(deps: ReconciliationDeps): Promise<ReconciliationRound> {
  const now = deps.ctx.now();
  const claimed = await claimPaymentsDueForCheck(deps.ctx.db, {
    now,
    leaseUntil: new Date(now.getTime() + RECHECK_AFTER_MS),
    limit: deps.batchSize ?? DEFAULT_BATCH_SIZE,
  });
  let settled = 0;
  for (const payment of claimed) {
    try {
      if (await checkPayment(deps, payment, now)) settled += 1;
    } catch (error) {
      deps.ctx.log.error({ err: error, reference: payment.reference }, 'Could not reconcile a payment; it is retried later');
    }
  }
  return { checked: claimed.length, settled };
}

async function checkPayment(deps: ReconciliationDeps, payment: Payment, now: Date): Promise<boolean> {
  const ageMs = now.getTime() - payment.createdAt.getTime();
  const { reconciliation } = deps.config;
  const outcome = await askProvider(deps, payment);
  if (outcome !== undefined) {
    const result = await settlePayment(deps.ctx, { reference: payment.reference }, outcome);
    if (result.kind === 'changed') return true;
    // A final answer that changed nothing: the payment was settled meanwhile.
    if (outcome.status !== 'pending') return false;
  }
  const deadlineMs =
    payment.channel === 'mobile_money' ? reconciliation.mobileMoneyExpireAfterMs : reconciliation.cardCheckoutExpireAfterMs;
  if (ageMs < deadlineMs) return false;
  const result = await settlePayment(
    deps.ctx,
    { reference: payment.reference },
    { status: 'expired', source: 'reconciliation', reason: expiryReasonOf(payment) },
  );
  return result.kind === 'changed';
}

/** The provider's view of the payment; undefined when it has none (or cannot be asked now). */
async function askProvider(deps: ReconciliationDeps, payment: Payment): Promise<ProviderOutcome | undefined> {
  try {
    if (payment.channel === 'card') {
      return await cardProviderNamed(deps.providers, payment.provider)?.lookUp(payment.reference);
    }
    if (payment.providerReference === null) return undefined;
    return await mobileMoneyProviderNamed(deps.providers, payment.provider)?.queryPayment(payment.providerReference);
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError || error instanceof ProviderRejectedError)) throw error;
    deps.ctx.log.warn({ err: error, reference: payment.reference }, 'The provider could not be asked about a pending payment');
    return undefined;
  }
}

function expiryReasonOf(payment: Payment): string {
  if (payment.channel === 'card') return 'The checkout was not completed in time';
  return payment.providerReference === null
    ? 'The M-Pesa prompt was never confirmed by the provider'
    : 'No result came from M-Pesa in time';
}
