import type { Payment } from '@platform/db';
import type { PaymentView } from './schemas.js';

/**
 * A payment as the API answers it, with the number of its receipt (null until it has succeeded) and of its invoice
 * (bank transfers only).
 */
export function toPaymentView(
  payment: Payment,
  documents: { receiptNumber: string | null; invoiceNumber: string | null },
): PaymentView {
  const { plan, seats, billingCycle } = payment;
  return {
    reference: payment.reference,
    status: payment.status,
    method: payment.method,
    channel: payment.channel,
    purpose: payment.purpose,
    amount: payment.amount,
    currency: 'KES',
    phone: payment.phone,
    paymentMethodId: payment.paymentMethodId,
    subscription: plan !== null && seats !== null && billingCycle !== null ? { plan, seats, billingCycle } : null,
    checkoutUrl: payment.status === 'pending' ? payment.checkoutUrl : null,
    failureReason: payment.failureReason,
    receiptNumber: documents.receiptNumber,
    invoiceNumber: documents.invoiceNumber,
    transferReference: payment.channel === 'bank_transfer' ? payment.accountReference : null,
    createdAt: payment.createdAt.toISOString(),
    completedAt: payment.completedAt?.toISOString() ?? null,
  };
}
