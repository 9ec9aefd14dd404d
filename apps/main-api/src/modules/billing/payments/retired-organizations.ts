import type { Payment, PaymentStatus, Transaction } from '@platform/db';
import { conflict } from '@platform/errors';
import { PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import { formatDay } from '../documents/index.js';
import { movePaymentStatus, recordStatusChange } from './repository.js';
import { lockOrganizationForMoney } from './retirement-repository.js';

// A retired organization takes no more money (docs/decisions.md#retired-organizations-take-no-money). What it is still
// owed by a provider, or what a payer sends it anyway, is never applied: it is recorded as `refund_due`, for the
// platform's finance staff to refund (GET /v1/finance/refunds-due).

/** The 409 for a payment or a subscription change asked for while its organization was being retired. */
export const ORGANIZATION_RETIRED =
  'This organization has been closed: it takes no more payments or subscription changes';

/**
 * When the organization was retired (null: it was not), with its row locked FOR KEY SHARE until the transaction ends:
 * the first lock of everything that records money for an organization, so that its retirement, which holds the row
 * FOR UPDATE, is decided in one place.
 */
export async function retiredAtOf(tx: Transaction, organizationId: string): Promise<Date | null> {
  const organization = await lockOrganizationForMoney(tx, organizationId);
  if (organization === undefined) throw new Error(`Organization ${organizationId} of a payment does not exist`);
  return organization.retiredAt;
}

/** 409 unless the organization is still open, holding its row as retiredAtOf does: a new payment or change starts. */
export async function assertTakesPayments(tx: Transaction, organizationId: string): Promise<void> {
  if ((await retiredAtOf(tx, organizationId)) !== null) throw conflict(ORGANIZATION_RETIRED);
}

/** The states money for a retired organization may arrive in: a payment still open, given up, or voided at retirement. */
const RECEIVABLE_FROM: readonly PaymentStatus[] = ['pending', 'expired', 'cancelled'];

/**
 * Records money that arrived for a retired organization: the payment moves to `refund_due` (from pending, expired or
 * cancelled: a success the provider could not be stopped from taking), with its status change and the audit record in
 * the organization's log, and nothing else happens: no credit, no subscription, no notification, no receipt. Undefined
 * when the payment was in none of those states (recorded already, or it succeeded before the retirement).
 */
export async function recordRefundDue(
  tx: Transaction,
  payment: Payment,
  report: { source: string; retiredAt: Date; now: Date; mpesaReceiptNumber?: string | undefined },
): Promise<{ from: PaymentStatus; payment: Payment } | undefined> {
  const reason =
    `The organization was closed on ${formatDay(report.retiredAt)} before this money arrived: nothing was applied, ` +
    'the platform refunds it';
  for (const from of RECEIVABLE_FROM) {
    // M-Pesa's receipt number is kept as for a success: it is what the payer quotes, and what the refund names.
    const moved = await movePaymentStatus(tx, payment.id, {
      from,
      to: 'refund_due',
      reason,
      now: report.now,
      mpesaReceiptNumber: report.mpesaReceiptNumber,
    });
    if (moved === undefined) continue;
    await recordStatusChange(tx, {
      paymentId: payment.id,
      source: report.source,
      from,
      to: 'refund_due',
      reason,
      createdAt: report.now,
    });
    await recordAuditEvent(tx, PLATFORM_JOB, {
      organizationId: payment.organizationId,
      action: 'payment.refund_due',
      targetType: 'payment',
      targetId: payment.reference,
      details: {
        from,
        to: 'refund_due',
        amount: payment.amount,
        purpose: payment.purpose,
        source: report.source,
        reason,
      },
    });
    return { from, payment: moved };
  }
  return undefined;
}

/** The source of what a retirement does to its organization's payments, in payment_events and the audit log. */
export const RETIREMENT_SOURCE = 'organization_retired';

/**
 * Voids a payment of an organization being retired that nothing but us decides (a bank transfer's invoice): pending ->
 * cancelled, with its status change and audit record, so that it can no longer be paid. No payment hook runs: the
 * retirement has ended the subscription change it paid for first. Undefined when it was no longer pending.
 */
export async function voidForRetirement(tx: Transaction, payment: Payment, now: Date): Promise<Payment | undefined> {
  const reason = 'The organization was closed: this payment can no longer be made';
  const voided = await movePaymentStatus(tx, payment.id, { from: 'pending', to: 'cancelled', reason, now });
  if (voided === undefined) return undefined;
  await recordStatusChange(tx, {
    paymentId: payment.id,
    source: RETIREMENT_SOURCE,
    from: 'pending',
    to: 'cancelled',
    reason,
    createdAt: now,
  });
  await recordAuditEvent(tx, PLATFORM_JOB, {
    organizationId: payment.organizationId,
    action: 'payment.cancelled',
    targetType: 'payment',
    targetId: payment.reference,
    details: {
      from: 'pending',
      to: 'cancelled',
      amount: payment.amount,
      purpose: payment.purpose,
      source: RETIREMENT_SOURCE,
      reason,
    },
  });
  return voided;
}
