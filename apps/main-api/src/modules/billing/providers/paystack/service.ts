import type { PaymentProvider } from '@platform/db';
import {
  raisePaymentAlarm,
  type SettlementContext,
  type SettlementResult,
  settlePayment,
} from '../../payments/index.js';
import { isRecord } from '../http.js';
import { outcomeOfPaystackTransaction, type PaystackTransaction, readPaystackTransaction } from './transaction.js';

/**
 * Handles one authentic Paystack-shaped event `{event, data}`: the webhook after its signature is checked,
 * and the sandbox checkout. `charge.success` settles the payment named by `data.reference`; other events
 * about one of our payments are recorded with it. Undefined when the body is not an event we can read.
 */
export async function processPaystackEvent(
  ctx: SettlementContext,
  provider: PaymentProvider,
  body: unknown,
  source: string,
): Promise<SettlementResult | undefined> {
  const event = isRecord(body) ? body['event'] : undefined;
  const transaction = isRecord(body) ? readPaystackTransaction(body['data']) : undefined;
  if (typeof event !== 'string' || transaction === undefined) return undefined;
  const outcome = outcomeOfPaystackTransaction(transaction, event, source, body);
  // Only a charge event says anything about whether the payment was made.
  const settlement = event === 'charge.success' ? outcome : { ...outcome, status: 'pending' as const };
  const result = await applyPaystackOutcome(ctx, provider, transaction, settlement);
  if (result.kind === 'unmatched' && settlement.status === 'succeeded') {
    // Our payment row exists before Paystack hears of the reference, so no success can come "too early".
    raisePaymentAlarm(
      ctx,
      'unmatched_success',
      { provider, reference: transaction.reference, transactionId: transaction.id, eventKey: settlement.eventKey },
      'A Paystack charge succeeded that matches none of our payments: the money was taken and nothing was credited; its event is kept for support',
    );
  }
  return result;
}

/** Settles the payment a Paystack transaction belongs to (verify answers, charges, declines in the sandbox). */
export function applyPaystackTransaction(
  ctx: SettlementContext,
  provider: PaymentProvider,
  transaction: PaystackTransaction,
  eventName: string,
  source: string,
  payload: unknown,
): Promise<SettlementResult> {
  return applyPaystackOutcome(
    ctx,
    provider,
    transaction,
    outcomeOfPaystackTransaction(transaction, eventName, source, payload),
  );
}

function applyPaystackOutcome(
  ctx: SettlementContext,
  provider: PaymentProvider,
  transaction: PaystackTransaction,
  settlement: ReturnType<typeof outcomeOfPaystackTransaction>,
): Promise<SettlementResult> {
  // Paystack's transaction reference is ours: it finds the payment even if the provider's answer to our
  // request never arrived (a timeout), so a late success still counts.
  return settlePayment(ctx, { reference: transaction.reference, provider }, settlement);
}
