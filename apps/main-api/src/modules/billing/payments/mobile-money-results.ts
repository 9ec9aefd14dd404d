import type { Payment, PaymentProvider } from '@platform/db';
import { raisePaymentAlarm } from './alarms.js';
import {
  attachEarlyEvents,
  findPushesInFlight,
  findUnmatchedProviderEvents,
} from './mobile-money-results-repository.js';
import type { MobileMoneyResult, MobileMoneyResults } from './provider-port.js';
import { type SettlementContext, type SettlementResult, settlePayment } from './settle-payment.js';

/**
 * Settles the payment of one authentic M-Pesa prompt result (from Daraja's callback route, or from the
 * sandbox), found by the prompt's provider reference (the CheckoutRequestID).
 *
 * A success that matches no payment is kept (its event, for support) and, unless a push for that number and
 * amount is still waiting for the provider's answer (the result may have overtaken it: it is applied once the
 * CheckoutRequestID is stored), raises an alarm: the customer paid and nothing can be credited automatically.
 * Typically the push timed out on our side, so its CheckoutRequestID was never learnt. Payments are never
 * matched by number and amount: two prompts for the same number and amount would be indistinguishable.
 */
export async function settleMobileMoneyResult(
  ctx: SettlementContext,
  provider: PaymentProvider,
  result: MobileMoneyResult,
): Promise<SettlementResult> {
  const settled = await settlePayment(ctx, { provider, providerReference: result.providerReference }, result.outcome);
  if (settled.kind === 'unmatched' && result.outcome.status === 'succeeded') {
    const { payer } = result;
    const inFlight = await findPushesInFlight(ctx.db, provider, payer);
    if (inFlight.length === 0) {
      raisePaymentAlarm(
        ctx,
        'unmatched_success',
        { provider, checkoutRequestId: result.providerReference, payer, eventKey: result.outcome.eventKey },
        'An M-Pesa payment succeeded that matches none of our prompts: the money was taken and nothing was credited; its callback is kept for support',
      );
    }
  }
  return settled;
}

/**
 * Applies M-Pesa results that arrived before the payment's CheckoutRequestID was stored (the customer
 * answered faster than we recorded the provider's answer). They were kept as events without a payment; this
 * attaches them and settles the payment by them. Call it once the CheckoutRequestID is stored.
 */
export async function applyEarlyMobileMoneyResults(
  ctx: SettlementContext,
  results: MobileMoneyResults,
  payment: Payment,
  providerReference: string,
): Promise<void> {
  const early = await attachEarlyEvents(ctx.db, payment.id, results.keyPrefixOf(providerReference));
  for (const event of early) {
    const result = results.read(event.payload, event.source);
    if (result === undefined) continue;
    // The event is recorded already (now attached); settle without recording it again.
    await settlePayment(ctx, { reference: payment.reference }, { ...result.outcome, eventKey: undefined });
  }
}

/**
 * A push whose answer never came can have no result applied to it (its CheckoutRequestID is unknown). A
 * success that arrived while that push was in flight was taken for one that overtook the answer, and so
 * raised no alarm then: it is raised now, for every such success for this number and amount.
 */
export async function alarmEarlyUnmatchedMobileMoneySuccesses(
  ctx: SettlementContext,
  results: MobileMoneyResults,
  payment: Payment,
): Promise<void> {
  if (payment.phone === null) return;
  const events = await findUnmatchedProviderEvents(ctx.db, results.sources, payment.createdAt);
  for (const event of events) {
    const result = results.read(event.payload, event.source);
    if (result?.outcome.status !== 'succeeded') continue;
    const { payer } = result;
    // A result without the number and amount cannot be told apart: it is reported too.
    if (payer !== undefined && (payer.phone !== payment.phone || payer.amount !== payment.amount)) continue;
    raisePaymentAlarm(
      ctx,
      'unmatched_success',
      {
        checkoutRequestId: result.providerReference,
        payer,
        eventKey: event.providerEventKey,
        pushOf: payment.reference,
      },
      'An M-Pesa payment succeeded while our push for the same number and amount got no answer: nothing was credited; its callback is kept for support',
    );
  }
}
