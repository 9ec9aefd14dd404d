import type { Payment } from '@platform/db';
import { paymentFailed, providerUnavailable } from '@platform/errors';
import { ProviderRejectedError, ProviderUnavailableError } from './provider-errors.js';
import { awaitConfirmation, recordPaymentEvent } from './repository.js';
import { type SettlementContext, settlePayment } from './settle-payment.js';

/** The provider's answer, or the news that its outcome is unknown (it may have acted; the payment waits). */
export type ProviderReply<T> = { answered: true; value: T } | { answered: false; error: unknown };

export interface AskOptions {
  /** The provider's reference for the payment when it is known before asking (card providers use ours). */
  providerReference?: string;
  /** When the reconciliation job should first ask about a payment whose outcome is unknown. */
  confirmAfterMs: number;
}

/**
 * Calls the provider for a payment recorded as pending, outside any transaction, and sorts out a failure:
 *
 * - the request certainly was not acted on (refused, unreachable, our credentials, rate limited): the payment
 *   ends `failed` with the reason, and 402 payment_failed (a refusal) or 503 provider_unavailable is thrown;
 * - the provider may have acted (no answer in time, a connection broken after sending, a 5xx, an unreadable
 *   answer, or any failure we cannot place): the outcome is unknown, so the payment stays pending with the
 *   provider reference we know, to be confirmed by the reconciliation job (or the provider's own callback),
 *   and `{answered: false}` is returned: the caller tells the client (503, or 202 for an upgrade).
 *
 * Either way the failure is recorded as a `provider_error` event.
 */
export async function askProvider<T>(
  ctx: SettlementContext,
  payment: Payment,
  call: () => Promise<T>,
  options: AskOptions,
): Promise<ProviderReply<T>> {
  try {
    return { answered: true, value: await call() };
  } catch (error) {
    const outcomeUnknown = !isCertainFailure(error);
    const now = ctx.now();
    await recordPaymentEvent(ctx.db, {
      paymentId: payment.id,
      type: 'provider_error',
      source: 'api',
      payload: {
        error: error instanceof Error ? error.message : String(error),
        outcome: outcomeUnknown ? 'unknown' : 'not_taken',
      },
      createdAt: now,
    });
    if (outcomeUnknown) {
      await awaitConfirmation(ctx.db, payment, {
        ...(options.providerReference === undefined ? {} : { providerReference: options.providerReference }),
        nextCheckAt: new Date(now.getTime() + options.confirmAfterMs),
        now,
      });
      // A failure that is not the provider's (a fault of ours while asking) is an error to look into.
      const level = error instanceof ProviderUnavailableError ? 'warn' : 'error';
      ctx.log[level](
        { err: error, reference: payment.reference, provider: payment.provider },
        'The provider may have acted on a payment whose answer never came: it stays pending until the provider confirms it',
      );
      return { answered: false, error };
    }
    const reason = reasonOf(error);
    await settlePayment(ctx, { reference: payment.reference }, { status: 'failed', source: 'api', reason });
    if (error instanceof ProviderRejectedError) throw paymentFailed(reason, { cause: error });
    throw providerUnavailable('The payment provider is not available right now; please try again shortly', {
      cause: error,
    });
  }
}

/** The 503 for a payment whose outcome is unknown: it names the payment and where its outcome will show. */
export function outcomeUnknown(payment: Payment, error: unknown) {
  return providerUnavailable(
    `The payment provider did not confirm payment ${payment.reference} in time. It is being confirmed with the provider: ` +
      `GET /v1/billing/payments/${payment.reference} shows the outcome, and a retry with the same Idempotency-Key ` +
      'does not pay twice',
    { cause: error },
  );
}

/** Failures after which the provider certainly did not act on the request. */
function isCertainFailure(error: unknown): boolean {
  if (error instanceof ProviderRejectedError) return true;
  return error instanceof ProviderUnavailableError && !error.mayHaveActed;
}

function reasonOf(error: unknown): string {
  if (error instanceof ProviderRejectedError)
    return `The payment provider refused the payment: ${error.providerMessage}`;
  return 'The payment provider could not take the payment';
}
