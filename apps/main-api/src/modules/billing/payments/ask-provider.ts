import type { Payment } from '@platform/db';
import { paymentFailed, providerUnavailable } from '@platform/errors';
import { ProviderRejectedError, ProviderUnavailableError } from '../providers/errors.js';
import { recordPaymentEvent } from './repository.js';
import { settlePayment, type SettlementContext } from './settle.js';

/**
 * Calls the provider. If it does not take the request, the payment ends at once with the reason, so none is
 * left pending without a provider reference: `failed` when the provider answered (an error or a refusal),
 * `expired` when it did not answer in time, because the request may still have reached it and a late
 * success must still count. The client gets 503 provider_unavailable, or 402 payment_failed for a refusal.
 */
export async function askProvider<T>(ctx: SettlementContext, payment: Payment, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const timedOut = error instanceof ProviderUnavailableError && error.kind === 'timeout';
    const reason = reasonOf(error);
    await recordPaymentEvent(ctx.db, {
      paymentId: payment.id,
      type: 'provider_error',
      source: 'api',
      payload: { error: error instanceof Error ? error.message : String(error) },
      createdAt: ctx.now(),
    });
    const status = timedOut ? 'expired' : 'failed';
    await settlePayment(ctx, { reference: payment.reference }, { status, source: 'api', reason });
    if (error instanceof ProviderRejectedError) throw paymentFailed(reason, { cause: error });
    if (error instanceof ProviderUnavailableError) {
      throw providerUnavailable('The payment provider is not available right now; please try again shortly', { cause: error });
    }
    throw error;
  }
}

function reasonOf(error: unknown): string {
  if (error instanceof ProviderRejectedError) return `The payment provider refused the payment: ${error.providerMessage}`;
  if (error instanceof ProviderUnavailableError) {
    return error.kind === 'timeout'
      ? 'The payment provider did not answer in time'
      : 'The payment provider could not take the payment';
  }
  return 'The payment could not be started';
}
