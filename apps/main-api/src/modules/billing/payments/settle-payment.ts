import type { Database, Payment, PaymentStatus, Transaction } from '@platform/db';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import { type PaymentAlarms, raisePaymentAlarm } from './alarms.js';
import type { PaymentLog } from './log.js';
import { isSubscriptionCharge, type PaymentHooks } from './payment-hooks.js';
import type { ProviderOutcome } from './provider-port.js';
import type { ReceiptIssuer } from './receipt-issuer.js';
import {
  findPayment,
  keepMpesaReceiptNumber,
  lockProviderReference,
  movePaymentStatus,
  type PaymentMatch,
  recordPaymentEvent,
  recordStatusChange,
} from './repository.js';
import { recordRefundDue, retiredAtOf } from './retired-organizations.js';
import { applySuccessEffects } from './success-effects.js';

/** What settling needs: the database, the clock, the payment hooks, the receipts, a logger and the alarm counter. */
export interface SettlementContext {
  db: Database;
  now: () => Date;
  hooks: PaymentHooks;
  /** Issues the receipt of every success, in its transaction. */
  receipts: ReceiptIssuer;
  log: PaymentLog;
  /** Counts money taken but not credited (payment_alarms_total); the error log line is written either way. */
  alarms?: PaymentAlarms;
}

/**
 * A decision about a payment: a provider's outcome (with the key of its event, unless that event is already
 * recorded), or one of ours (the provider failed to take the request, or the payment ran out of time).
 */
export type Settlement = Omit<ProviderOutcome, 'eventKey' | 'payload'> & { eventKey?: string; payload?: unknown };

export type SettlementResult =
  /** An authentic provider message about no payment we know; its event was kept for support. */
  | { kind: 'unmatched' }
  /** The provider event had been received before: nothing was done. */
  | { kind: 'duplicate'; payment: Payment | undefined }
  /** Recorded, but the payment's status did not change (still pending, or already final). */
  | { kind: 'unchanged'; payment: Payment }
  | { kind: 'changed'; from: PaymentStatus; payment: Payment };

/**
 * Applies an outcome to a payment in one transaction: the provider event is recorded (a duplicate stops
 * here), the status moves with a conditional UPDATE (pending -> any final state; expired -> succeeded for a
 * late success; nothing else), the transition is recorded, and on success the effects run in the same
 * transaction (a subscription charge that ends otherwise runs its failure hook there too). However many
 * copies of an outcome arrive, at the same time or later, the effects run once.
 */
export async function settlePayment(
  ctx: SettlementContext,
  match: PaymentMatch,
  settlement: Settlement,
): Promise<SettlementResult> {
  const result = await ctx.db.transaction(async (tx): Promise<SettlementResult> => {
    const now = ctx.now();
    if ('providerReference' in match) await lockProviderReference(tx, match.provider, match.providerReference);
    const found = await findPayment(tx, match);
    if (settlement.eventKey !== undefined) {
      const fresh = await recordPaymentEvent(tx, {
        paymentId: found?.id ?? null,
        type: 'provider_event',
        source: settlement.source,
        providerEventKey: settlement.eventKey,
        payload: settlement.payload ?? null,
        createdAt: now,
      });
      if (!fresh) return { kind: 'duplicate', payment: found };
    }
    if (found === undefined) return { kind: 'unmatched' };
    return settleFoundPayment(tx, ctx, found, settlement, now);
  });
  logResult(ctx, match, settlement, result);
  return result;
}

/**
 * Applies an outcome to a payment already found, in the caller's transaction: the status moves with a conditional
 * UPDATE (pending -> any final state; expired -> succeeded for a late success; nothing else), the transition is
 * recorded (with the audit record), and on success the effects run (a subscription charge that ends otherwise runs
 * its failure hook). The organization's row is locked first (FOR KEY SHARE): a success for a retired organization is
 * recorded as refund_due and nothing else happens (docs/decisions.md#retired-organizations-take-no-money).
 * settlePayment's core, also used where the caller holds the payment's row lock itself (a bank
 * transfer confirmed by finance, or expired: docs/decisions.md#bank-transfer-confirmation).
 */
export async function settleFoundPayment(
  tx: Transaction,
  ctx: SettlementContext,
  found: Payment,
  settlement: Settlement,
  now: Date,
): Promise<SettlementResult> {
  if (settlement.status === 'pending') return { kind: 'unchanged', payment: found };

  // The organization's row first: a retirement running now is waited for, and decides what a success does
  // (docs/decisions.md#retired-organizations-take-no-money).
  const retiredAt = await retiredAtOf(tx, found.organizationId);
  const { status, reason } = finalStatusOf(found, settlement);
  if (retiredAt !== null && status === 'succeeded') {
    const received = await recordRefundDue(tx, found, {
      source: settlement.source,
      retiredAt,
      now,
      mpesaReceiptNumber: settlement.mpesaReceiptNumber,
    });
    if (received !== undefined) return { kind: 'changed', ...received };
    return { kind: 'unchanged', payment: (await findPayment(tx, { reference: found.reference })) ?? found };
  }
  // A success's M-Pesa receipt number is kept by the move itself, before the effects, so the receipt they issue
  // shows it.
  const moved = await move(
    tx,
    found,
    status,
    reason,
    now,
    status === 'succeeded' ? settlement.mpesaReceiptNumber : undefined,
  );
  if (moved === undefined) {
    // Where it stands now (another message may have moved it since it was read), for the alarm below. A success
    // reported again may bring the M-Pesa receipt number the first report lacked (a status query has none).
    const current = (await findPayment(tx, { reference: found.reference })) ?? found;
    const payment = status === 'succeeded' ? await withMpesaReceiptNumber(tx, current, settlement) : current;
    return { kind: 'unchanged', payment };
  }
  await recordStatusChange(tx, {
    paymentId: found.id,
    source: settlement.source,
    from: moved.from,
    to: status,
    reason,
    createdAt: now,
  });
  // Whoever reported the outcome (the provider, the request that charged, the reconciliation job), the platform
  // records it.
  await recordAuditEvent(tx, PLATFORM_JOB, {
    organizationId: moved.payment.organizationId,
    action: `payment.${status}`,
    targetType: 'payment',
    targetId: moved.payment.reference,
    details: {
      from: moved.from,
      to: status,
      amount: moved.payment.amount,
      purpose: moved.payment.purpose,
      source: settlement.source,
      reason,
    },
  });
  const { payment } = moved;
  if (status === 'succeeded') {
    await applySuccessEffects(tx, payment, {
      reusableCard: settlement.reusableCard,
      now,
      hooks: ctx.hooks,
      receipts: ctx.receipts,
    });
  } else if (isSubscriptionCharge(moved.payment)) {
    await ctx.hooks.onSubscriptionChargeFailed(tx, moved.payment);
  }
  return { kind: 'changed', from: moved.from, payment };
}

/**
 * The payment with the M-Pesa receipt number a success reports, kept if the payment succeeded and has none yet
 * (docs/decisions.md#m-pesa-receipt-number); as it was otherwise.
 */
async function withMpesaReceiptNumber(tx: Transaction, payment: Payment, settlement: Settlement): Promise<Payment> {
  const { mpesaReceiptNumber } = settlement;
  if (mpesaReceiptNumber === undefined || payment.status !== 'succeeded' || payment.mpesaReceiptNumber !== null) {
    return payment;
  }
  return (await keepMpesaReceiptNumber(tx, payment.id, mpesaReceiptNumber)) ?? payment;
}

/** A success whose amount or currency differs from the payment's is not a success of this payment. */
function finalStatusOf(payment: Payment, settlement: Settlement): { status: PaymentStatus; reason: string | null } {
  if (settlement.status !== 'succeeded') return { status: settlement.status, reason: settlement.reason ?? null };
  const { paid } = settlement;
  if (paid !== undefined && (paid.amount !== payment.amount || paid.currency !== payment.currency)) {
    return {
      status: 'failed',
      reason: `The provider reported ${paid.amount} ${paid.currency} paid for a payment of ${payment.amount} ${payment.currency}`,
    };
  }
  return { status: 'succeeded', reason: null };
}

// The states a payment may leave for `to`: only pending, except that a late success still counts after expiry.
function sourcesOf(to: PaymentStatus): PaymentStatus[] {
  return to === 'succeeded' ? ['pending', 'expired'] : ['pending'];
}

async function move(
  tx: Transaction,
  payment: Payment,
  to: PaymentStatus,
  reason: string | null,
  now: Date,
  mpesaReceiptNumber: string | undefined,
): Promise<{ from: PaymentStatus; payment: Payment } | undefined> {
  for (const from of sourcesOf(to)) {
    const updated = await movePaymentStatus(tx, payment.id, { from, to, reason, now, mpesaReceiptNumber });
    if (updated !== undefined) return { from, payment: updated };
  }
  return undefined;
}

// Final states a success cannot leave: money the provider took would then be credited nowhere.
const SUCCESS_LOST_IN: ReadonlySet<PaymentStatus> = new Set(['failed', 'cancelled']);

function logResult(
  ctx: SettlementContext,
  match: PaymentMatch,
  settlement: Settlement,
  result: SettlementResult,
): void {
  const { log } = ctx;
  const context = { match, source: settlement.source, outcome: settlement.status, eventKey: settlement.eventKey };
  if (result.kind === 'unmatched') {
    // Either a callback that overtook the provider's answer (applied once the answer is stored) or a payment
    // we never made: the event is kept either way, and the provider's handler raises the alarm if it must.
    log.warn(context, 'A provider reported a payment that matches none of ours (yet); its event is kept');
  } else if (result.kind === 'changed') {
    const reportedSuccess = settlement.status === 'succeeded';
    const details = { ...context, reference: result.payment.reference, from: result.from, to: result.payment.status };
    if (result.payment.status === 'refund_due') {
      raisePaymentAlarm(
        ctx,
        'retired_organization_payment',
        { ...details, organizationId: result.payment.organizationId, amount: result.payment.amount },
        'A provider reported money paid to a retired organization: nothing was applied, it is listed to refund',
      );
    } else if (reportedSuccess && result.payment.status !== 'succeeded') {
      const alarm = { ...details, reason: result.payment.failureReason };
      raisePaymentAlarm(
        ctx,
        'amount_mismatch',
        alarm,
        'A provider reported a success for another amount: nothing was credited',
      );
    } else {
      log.info(details, 'Payment status changed');
    }
  } else if (
    result.kind === 'unchanged' &&
    settlement.status === 'succeeded' &&
    SUCCESS_LOST_IN.has(result.payment.status)
  ) {
    raisePaymentAlarm(
      ctx,
      'success_after_final',
      { ...context, reference: result.payment.reference, status: result.payment.status },
      `A provider reported a success for a payment recorded as ${result.payment.status}: the money was taken but nothing was credited`,
    );
  } else {
    log.info({ ...context, result: result.kind }, 'Payment event recorded without a status change');
  }
}
