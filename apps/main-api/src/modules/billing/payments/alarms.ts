import { moduleCounter, type PlatformMetrics } from '@platform/http';
import type { PaymentLog } from './log.js';

/**
 * Money the provider took that we did not credit (or may not have): each needs a person to look at it, so
 * each is logged at error level and counted in `payment_alarms_total{kind}` for alerting.
 */
export type PaymentAlarmKind =
  /** A provider reported a success for a payment we had recorded as failed or cancelled. */
  | 'success_after_final'
  /** An authentic provider success matched none of our payments (e.g. an M-Pesa push whose answer never came). */
  | 'unmatched_success'
  /** A provider reported a success for another amount or currency than the payment's. */
  | 'amount_mismatch'
  /**
   * Finance recorded a bank transfer of another amount than its invoice's: received, not applied. No longer raised:
   * amounts recorded for an invoice add up (docs/decisions.md#split-bank-transfers); kept for the series already kept.
   */
  | 'transfer_amount_mismatch'
  /** A bank transfer expired after finance had recorded money received for it (another amount). */
  | 'unapplied_transfer_expired'
  /**
   * Money arrived for a retired organization (a provider's success, or a bank transfer finance recorded): nothing was
   * applied, finance refunds it (docs/decisions.md#retired-organizations-take-no-money). Once per payment.
   */
  | 'retired_organization_payment';

export interface PaymentAlarms {
  raise(kind: PaymentAlarmKind): void;
}

export const PAYMENT_ALARMS_METRIC = 'payment_alarms_total';

/** The alarm counter in this app's metrics registry. */
export function paymentAlarmsIn(metrics: PlatformMetrics): PaymentAlarms {
  const counter = moduleCounter(metrics, {
    name: PAYMENT_ALARMS_METRIC,
    help: 'Money received that was not credited as reported (success after failure, unmatched, wrong amount, a bank transfer of another amount, money for a retired organization): each needs support',
    labelNames: ['kind'],
  });
  return { raise: (kind) => counter.inc({ kind }) };
}

/** Logs the alarm at error level and counts it. */
export function raisePaymentAlarm(
  ctx: { log: PaymentLog; alarms?: PaymentAlarms | undefined },
  kind: PaymentAlarmKind,
  context: Record<string, unknown>,
  message: string,
): void {
  ctx.log.error({ ...context, alarm: kind }, message);
  ctx.alarms?.raise(kind);
}
