import type { Payment, Transaction } from '@platform/db';
import {
  findPaymentsWithoutReceipt,
  isSecondReceiptOfPayment,
  lockPaymentWithoutReceipt,
} from './missing-receipts-repository.js';
import type { PaidFor, PaymentHooks } from './payment-hooks.js';
import type { SettlementContext } from './settle-payment.js';

/** Payments given their receipt per round at most; the next round takes the rest. */
const DEFAULT_BATCH_SIZE = 50;

export interface MissingReceiptsRound {
  /** Succeeded payments without a receipt the round found (up to its batch). */
  found: number;
  /** Receipts issued. */
  issued: number;
}

/**
 * One round of the job that issues the receipts of payments that succeeded before receipts existed
 * (docs/decisions.md#receipts-for-earlier-payments): up to a batch of succeeded payments without a receipt, the one that
 * succeeded first first, each in its own transaction. The payment is locked (`FOR UPDATE SKIP LOCKED`, so instances
 * share the work) and its receipt issued by the issuer every success uses, numbered from the same gapless series;
 * should another instance have issued it meanwhile, the unique `receipts.payment_id` refuses the second and the
 * transaction rolls back, giving its number back: already issued, not an error.
 */
export async function issueMissingReceipts(deps: {
  ctx: SettlementContext;
  batchSize?: number;
}): Promise<MissingReceiptsRound> {
  const { ctx } = deps;
  const waiting = await findPaymentsWithoutReceipt(ctx.db, deps.batchSize ?? DEFAULT_BATCH_SIZE);
  let issued = 0;
  for (const payment of waiting) {
    try {
      if (await issueMissingReceipt(ctx, payment.id)) issued += 1;
    } catch (error) {
      ctx.log.error(
        { err: error, reference: payment.reference },
        'Could not issue the receipt of a payment that succeeded before receipts existed; it is retried later',
      );
    }
  }
  if (issued > 0) ctx.log.info({ issued }, 'Receipts issued for payments that succeeded before receipts existed');
  return { found: waiting.length, issued };
}

/**
 * The job's rounds in one instance. Every success issues its receipt in its own transaction, so once a round finds no
 * payment without one, none can appear again: later rounds of this instance look no more.
 */
export function missingReceiptRounds(deps: { ctx: SettlementContext }): () => Promise<MissingReceiptsRound> {
  let done = false;
  return async () => {
    if (done) return { found: 0, issued: 0 };
    const round = await issueMissingReceipts(deps);
    done = round.found === 0;
    return round;
  };
}

/** True when this transaction issued the payment's receipt; false when it has one (or another instance holds it). */
async function issueMissingReceipt(ctx: SettlementContext, paymentId: string): Promise<boolean> {
  try {
    return await ctx.db.transaction(async (tx) => {
      const payment = await lockPaymentWithoutReceipt(tx, paymentId);
      if (payment === undefined) return false;
      const paidFor = await paidForOf(tx, payment, ctx.hooks);
      // Long paid: a notification per old payment would bury the members' current ones.
      await ctx.receipts.issueReceipt(tx, payment, paidFor, ctx.now(), { tellMembers: false });
      return true;
    });
  } catch (error) {
    if (isSecondReceiptOfPayment(error)) return false;
    throw error;
  }
}

/** What the payment paid for, as its receipt states it: a top-up, or what its subscription records say. */
function paidForOf(tx: Transaction, payment: Payment, hooks: PaymentHooks): Promise<PaidFor> {
  return payment.purpose === 'wallet_topup'
    ? Promise.resolve({ kind: 'top_up' })
    : hooks.paidForEarlierPayment(tx, payment);
}
