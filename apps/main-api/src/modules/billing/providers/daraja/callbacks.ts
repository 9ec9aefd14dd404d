import type { Payment, PaymentProvider } from '@platform/db';
import { attachEarlyEvents } from '../../payments/repository.js';
import { settlePayment, type SettlementContext, type SettlementResult } from '../../payments/settle.js';
import { readStkCallback } from './results.js';

/**
 * Handles one authentic M-Pesa Express callback body (from Daraja through the callback route, or from the
 * sandbox): the payment is found by its CheckoutRequestID and settled by the result code. Undefined when
 * the body is not an STK callback.
 */
export async function processStkCallback(
  ctx: SettlementContext,
  provider: PaymentProvider,
  body: unknown,
  source: string,
): Promise<SettlementResult | undefined> {
  const callback = readStkCallback(body, source);
  if (callback === undefined) return undefined;
  return settlePayment(ctx, { provider, providerReference: callback.checkoutRequestId }, callback.outcome);
}

/**
 * Applies M-Pesa callbacks that arrived before the payment's CheckoutRequestID was stored (the customer
 * answered faster than we recorded Daraja's answer). They were kept as events without a payment; this
 * attaches them and settles the payment by them. Call it once the CheckoutRequestID is stored.
 */
export async function applyEarlyStkCallbacks(ctx: SettlementContext, payment: Payment, checkoutRequestId: string): Promise<void> {
  const early = await attachEarlyEvents(ctx.db, payment.id, `daraja:callback:${checkoutRequestId}:`);
  for (const event of early) {
    const callback = readStkCallback(event.payload, event.source);
    if (callback === undefined) continue;
    // The event is recorded already (now attached); settle without recording it again.
    await settlePayment(ctx, { reference: payment.reference }, { ...callback.outcome, eventKey: undefined });
  }
}
