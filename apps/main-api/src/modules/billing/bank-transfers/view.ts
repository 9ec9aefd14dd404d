import type { BankTransferConfirmation } from '@platform/db';
import type { TransferRow } from './repository.js';
import type { TransferView } from './schemas.js';

/** A bank transfer as finance sees it, with everything recorded about it. */
export function toTransferView(row: TransferRow, confirmations: BankTransferConfirmation[]): TransferView {
  const { payment } = row;
  const { plan, seats, billingCycle } = payment;
  return {
    reference: payment.reference,
    transferReference: payment.accountReference ?? '',
    invoiceNumber: row.invoiceNumber,
    organization: { id: payment.organizationId, name: row.organizationName },
    status: payment.status,
    purpose: payment.purpose,
    amount: payment.amount,
    amountReceived: confirmations.reduce((sum, confirmation) => sum + confirmation.amountReceived, 0),
    currency: 'KES',
    subscription: plan !== null && seats !== null && billingCycle !== null ? { plan, seats, billingCycle } : null,
    bankReference: payment.status === 'succeeded' ? payment.providerReference : null,
    receiptNumber: row.receiptNumber,
    confirmations: confirmations.map((confirmation) => ({
      amountReceived: confirmation.amountReceived,
      amountDue: confirmation.amountDue,
      receivedBefore: confirmation.receivedBefore,
      bankReference: confirmation.bankReference,
      outcome: confirmation.outcome,
      confirmedBy: confirmation.confirmedByUserId,
      confirmedAt: confirmation.createdAt.toISOString(),
    })),
    createdAt: payment.createdAt.toISOString(),
    dueAt: row.dueAt?.toISOString() ?? null,
    // The expiry job takes a bank transfer at its next check (docs/decisions.md#bank-transfer-expiry).
    expiresAt: payment.nextCheckAt.toISOString(),
    completedAt: payment.completedAt?.toISOString() ?? null,
  };
}
