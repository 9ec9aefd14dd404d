import type { Payment, PaymentProvider } from '@platform/db';
import { raisePaymentAlarm } from '../../payments/alarms.js';
import { attachEarlyEvents, findPushesInFlight, findUnmatchedProviderEvents } from '../../payments/repository.js';
import { type SettlementContext, type SettlementResult, settlePayment } from '../../payments/settle.js';
import { payerOfStkCallback, readStkCallback } from './results.js';

/**
 * Handles one authentic M-Pesa Express callback body (from Daraja through the callback route, or from the
 * sandbox): the payment is found by its CheckoutRequestID and settled by the result code. Undefined when
 * the body is not an STK callback.
 *
 * A success that matches no payment is kept (its event, for support) and, unless a push for that number and
 * amount is still waiting for Daraja's answer (the callback may have overtaken it: it is applied once the
 * CheckoutRequestID is stored), raises an alarm: the customer paid and nothing can be credited automatically.
 * Typically the push timed out on our side, so its CheckoutRequestID was never learnt. Payments are never
 * matched by number and amount: two prompts for the same number and amount would be indistinguishable.
 */
export async function processStkCallback(
  ctx: SettlementContext,
  provider: PaymentProvider,
  body: unknown,
  source: string,
): Promise<SettlementResult | undefined> {
  const callback = readStkCallback(body, source);
  if (callback === undefined) return undefined;
  const result = await settlePayment(
    ctx,
    { provider, providerReference: callback.checkoutRequestId },
    callback.outcome,
  );
  if (result.kind === 'unmatched' && callback.outcome.status === 'succeeded') {
    const payer = payerOfStkCallback(body);
    const inFlight = await findPushesInFlight(ctx.db, provider, payer);
    if (inFlight.length === 0) {
      raisePaymentAlarm(
        ctx,
        'unmatched_success',
        { provider, checkoutRequestId: callback.checkoutRequestId, payer, eventKey: callback.outcome.eventKey },
        'An M-Pesa payment succeeded that matches none of our prompts: the money was taken and nothing was credited; its callback is kept for support',
      );
    }
  }
  return result;
}

/**
 * Applies M-Pesa callbacks that arrived before the payment's CheckoutRequestID was stored (the customer
 * answered faster than we recorded Daraja's answer). They were kept as events without a payment; this
 * attaches them and settles the payment by them. Call it once the CheckoutRequestID is stored.
 */
export async function applyEarlyStkCallbacks(
  ctx: SettlementContext,
  payment: Payment,
  checkoutRequestId: string,
): Promise<void> {
  const early = await attachEarlyEvents(ctx.db, payment.id, `daraja:callback:${checkoutRequestId}:`);
  for (const event of early) {
    const callback = readStkCallback(event.payload, event.source);
    if (callback === undefined) continue;
    // The event is recorded already (now attached); settle without recording it again.
    await settlePayment(ctx, { reference: payment.reference }, { ...callback.outcome, eventKey: undefined });
  }
}

// Where M-Pesa callbacks are recorded from: Daraja's callback route and the sandbox.
const CALLBACK_SOURCES = ['daraja_callback', 'sandbox_callback'];

/**
 * A push whose answer never came can have no callback applied to it (its CheckoutRequestID is unknown). A
 * success callback that arrived while that push was in flight was taken for one that overtook the answer, and
 * so raised no alarm then: it is raised now, for every such success for this number and amount.
 */
export async function alarmEarlyUnmatchedStkSuccesses(ctx: SettlementContext, payment: Payment): Promise<void> {
  if (payment.phone === null) return;
  const events = await findUnmatchedProviderEvents(ctx.db, CALLBACK_SOURCES, payment.createdAt);
  for (const event of events) {
    const callback = readStkCallback(event.payload, event.source);
    const payer = payerOfStkCallback(event.payload);
    if (callback?.outcome.status !== 'succeeded') continue;
    // A callback without the number and amount cannot be told apart: it is reported too.
    if (payer !== undefined && (payer.phone !== payment.phone || payer.amount !== payment.amount)) continue;
    raisePaymentAlarm(
      ctx,
      'unmatched_success',
      {
        checkoutRequestId: callback.checkoutRequestId,
        payer,
        eventKey: event.providerEventKey,
        pushOf: payment.reference,
      },
      'An M-Pesa payment succeeded while our push for the same number and amount got no answer: nothing was credited; its callback is kept for support',
    );
  }
}
