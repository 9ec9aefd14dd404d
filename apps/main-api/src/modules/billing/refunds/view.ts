import type { RefundDueRow } from './repository.js';
import type { RefundDueView } from './schemas.js';

/**
 * A payment to refund as finance sees it. A bank transfer's amount to refund is what finance recorded for it (split
 * transfers add up, and more may have come than the invoice); any other payment's is what its provider reported,
 * its own amount.
 */
export function toRefundDueView(
  row: RefundDueRow,
  received: { amount: number; bankReferences: string[] } | undefined,
): RefundDueView {
  const { payment } = row;
  const transfer = payment.channel === 'bank_transfer';
  return {
    reference: payment.reference,
    organization: {
      id: payment.organizationId,
      name: row.organizationName,
      retiredAt: row.retiredAt?.toISOString() ?? null,
    },
    method: payment.method,
    channel: payment.channel,
    provider: payment.provider,
    purpose: payment.purpose,
    amount: payment.amount,
    amountToRefund: transfer ? (received?.amount ?? 0) : payment.amount,
    currency: 'KES',
    providerReference: transfer ? null : payment.providerReference,
    mpesaReceiptNumber: payment.mpesaReceiptNumber,
    transferReference: transfer ? payment.accountReference : null,
    bankReferences: received?.bankReferences ?? [],
    reportedBy: row.reportedBy,
    reason: payment.failureReason,
    createdAt: payment.createdAt.toISOString(),
    receivedAt: payment.completedAt?.toISOString() ?? null,
  };
}
