import type { Payment } from '@platform/db';
import { AppError, idempotencyKeyReused } from '@platform/errors';
import { DEFAULT_TTL_MS, type IdempotencyContext } from '@platform/idempotency';
import { findPaymentStartedWith } from './earlier-attempts-repository.js';
import type { StartedBy } from './repository.js';

/**
 * The idempotency module stores 2xx answers only (docs/decisions.md#only-2xx-answers-are-replayed), so a request
 * answered 503 because the provider's answer never came releases its key, although its payment may still
 * succeed. Payments therefore remember the key that started them (startedBy), and a retry with the same key is
 * decided here, before a second payment can start:
 *
 * - the earlier payment's outcome is not known yet (pending): no new payment; POST /pay answers 409
 *   idempotency_key_in_use with Retry-After (beingConfirmed), an upgrade its 202 again;
 * - it succeeded: the caller answers that success as a replay;
 * - it failed, was cancelled or expired: nothing stands in the way; a new payment runs.
 *
 * The same key with another request (fingerprint) is 422 while the earlier payment is pending or succeeded.
 *
 * Requests with the same key never run at the same time (the idempotency module holds the key while one
 * runs), so looking the payment up and then starting one cannot race.
 */
export type EarlierAttempt = { kind: 'none' } | { kind: 'pending' | 'succeeded'; payment: Payment };

/** The idempotent request as a payment remembers it, or undefined when the request carries no key. */
export function startedByOf(idempotency: IdempotencyContext | undefined): StartedBy | undefined {
  const { key, scope, fingerprint } = idempotency ?? {};
  if (key === undefined || scope === undefined || fingerprint === undefined) return undefined;
  return { key, scope, fingerprint };
}

export async function earlierAttemptOf(
  db: Parameters<typeof findPaymentStartedWith>[0],
  organizationId: string,
  startedBy: StartedBy | undefined,
  now: Date,
): Promise<EarlierAttempt> {
  if (startedBy === undefined) return { kind: 'none' };
  // Keys are remembered as long as the idempotency module remembers answers: 24 hours.
  const earlier = await findPaymentStartedWith(db, organizationId, startedBy, new Date(now.getTime() - DEFAULT_TTL_MS));
  if (earlier === undefined) return { kind: 'none' };
  const { payment } = earlier;
  if (payment.status !== 'pending' && payment.status !== 'succeeded') return { kind: 'none' };
  if (earlier.fingerprint !== startedBy.fingerprint) throw idempotencyKeyReused();
  return { kind: payment.status, payment };
}

// The reconciliation job runs every 30 s by default: asking sooner than its next look gains nothing.
const MIN_RETRY_AFTER_SECONDS = 30;

/** 409 for a retry while the payment the key started is still being confirmed with the provider. */
export function beingConfirmed(payment: Payment, now: Date): AppError {
  const untilCheck = Math.ceil((payment.nextCheckAt.getTime() - now.getTime()) / 1000);
  return new AppError(
    'idempotency_key_in_use',
    `This idempotency key started payment ${payment.reference}, which is still being confirmed with the payment provider; ` +
      `retry later or follow GET /v1/billing/payments/${payment.reference}`,
    { headers: { 'Retry-After': String(Math.max(MIN_RETRY_AFTER_SECONDS, untilCheck)) } },
  );
}
