import type { Payment } from '@platform/db';
import type { PaymentsConfig } from '../config.js';
import { ProviderRejectedError, ProviderUnavailableError } from './provider-errors.js';
import {
  cardProviderNamed,
  mobileMoneyProviderNamed,
  type PaymentProviders,
  type ProviderOutcome,
} from './provider-port.js';
import { claimPaymentsDueForCheck } from './reconcile-repository.js';
import { type SettlementContext, settlePayment } from './settle-payment.js';

export interface ReconciliationDeps {
  ctx: SettlementContext;
  providers: PaymentProviders;
  config: PaymentsConfig;
  /** Payments claimed per round. */
  batchSize?: number;
}

/** A payment the provider still has not settled is asked about again after this long. */
const RECHECK_AFTER_MS = 60_000;
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
 * processed" keeps them pending) and expire when no result comes within MOBILE_MONEY_EXPIRE_AFTER_MS; a
 * prompt whose push got no answer (no CheckoutRequestID to query) expires at its first check. Card payments,
 * saved-card charges whose answer never came included, are looked up by our reference (Paystack's verify):
 * a reference the provider never heard of fails, and the rest expire when not paid within
 * CARD_CHECKOUT_EXPIRE_AFTER_MS. An expired payment still succeeds if the provider later reports a success.
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
      deps.ctx.log.error(
        { err: error, reference: payment.reference },
        'Could not reconcile a payment; it is retried later',
      );
    }
  }
  return { checked: claimed.length, settled };
}

async function checkPayment(deps: ReconciliationDeps, payment: Payment, now: Date): Promise<boolean> {
  const ageMs = now.getTime() - payment.createdAt.getTime();
  const { reconciliation } = deps.config;
  const answer = await askProvider(deps, payment);
  if (answer.kind === 'outcome') {
    const { outcome } = answer;
    const result = await settlePayment(deps.ctx, { reference: payment.reference }, outcome);
    if (result.kind === 'changed') return true;
    // A final answer that changed nothing: the payment was settled meanwhile.
    if (outcome.status !== 'pending') return false;
  }
  const closeNow = closingReasonOf(payment, answer);
  if (closeNow !== undefined) return close(deps, payment, closeNow);
  const deadlineMs =
    payment.channel === 'mobile_money'
      ? reconciliation.mobileMoneyExpireAfterMs
      : reconciliation.cardCheckoutExpireAfterMs;
  if (ageMs < deadlineMs) return false;
  return close(deps, payment, { status: 'expired', reason: expiryReasonOf(payment) });
}

type ProviderView =
  | { kind: 'outcome'; outcome: ProviderOutcome }
  /** The provider has no transaction with the payment's reference: it never happened. */
  | { kind: 'unknown_to_provider' }
  /** The provider could not be asked (down, or not configured any more), or there is nothing to ask by. */
  | { kind: 'no_answer' };

/**
 * What ends a payment before its deadline, given the provider's view: a card payment the provider never
 * heard of failed (its request never reached it, or was refused before anything was made); a checkout whose
 * link was never handed out cannot be paid; an M-Pesa push whose answer never came cannot be asked about.
 */
function closingReasonOf(
  payment: Payment,
  view: ProviderView,
): { status: 'failed' | 'expired'; reason: string } | undefined {
  if (view.kind === 'unknown_to_provider' && payment.channel === 'card') {
    return { status: 'failed', reason: 'The payment provider has no record of this payment: nothing was charged' };
  }
  if (
    view.kind === 'outcome' &&
    payment.channel === 'card' &&
    payment.method === 'card' &&
    payment.checkoutUrl === null
  ) {
    return { status: 'expired', reason: 'The checkout link was never received from the payment provider' };
  }
  if (payment.channel === 'mobile_money' && payment.providerReference === null) {
    return { status: 'expired', reason: 'The M-Pesa prompt was never confirmed by the provider' };
  }
  return undefined;
}

async function close(
  deps: ReconciliationDeps,
  payment: Payment,
  decision: { status: 'failed' | 'expired'; reason: string },
): Promise<boolean> {
  const result = await settlePayment(
    deps.ctx,
    { reference: payment.reference },
    { status: decision.status, source: 'reconciliation', reason: decision.reason },
  );
  return result.kind === 'changed';
}

/** The provider's view of the payment, asked outside any transaction. */
async function askProvider(deps: ReconciliationDeps, payment: Payment): Promise<ProviderView> {
  try {
    if (payment.channel === 'card') {
      const card = cardProviderNamed(deps.providers, payment.provider);
      if (card === undefined) return { kind: 'no_answer' };
      const outcome = await card.lookUp(payment.reference);
      return outcome === undefined ? { kind: 'unknown_to_provider' } : { kind: 'outcome', outcome };
    }
    const mobileMoney = mobileMoneyProviderNamed(deps.providers, payment.provider);
    if (payment.providerReference === null || mobileMoney === undefined) return { kind: 'no_answer' };
    return { kind: 'outcome', outcome: await mobileMoney.queryPayment(payment.providerReference) };
  } catch (error) {
    if (!(error instanceof ProviderUnavailableError || error instanceof ProviderRejectedError)) throw error;
    deps.ctx.log.warn(
      { err: error, reference: payment.reference },
      'The provider could not be asked about a pending payment',
    );
    return { kind: 'no_answer' };
  }
}

function expiryReasonOf(payment: Payment): string {
  if (payment.channel === 'card') {
    return payment.method === 'card'
      ? 'The checkout was not completed in time'
      : 'The card payment was not confirmed in time';
  }
  return 'No result came from M-Pesa in time';
}
