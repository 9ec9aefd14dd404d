import type { Payment } from '@platform/db';
import type { PaymentViewFields } from './list-payments-repository.js';
import type { PaymentView } from './schemas.js';

/**
 * A payment as the API answers it, with the number of its receipt (null until it has succeeded) and of its invoice
 * (bank transfers only).
 */
export function toPaymentView(
  payment: Payment,
  documents: { receiptNumber: string | null; invoiceNumber: string | null },
): PaymentView {
  return paymentViewOf({
    ...payment,
    ...documents,
    createdAt: payment.createdAt.toISOString(),
    completedAt: payment.completedAt?.toISOString() ?? null,
  });
}

/** The answer from what it is made of: the one place that decides which fields a payment shows (the list's too). */
export function paymentViewOf(fields: PaymentViewFields): PaymentView {
  const { plan, seats, billingCycle } = fields;
  return {
    reference: fields.reference,
    status: fields.status,
    method: fields.method,
    channel: fields.channel,
    purpose: fields.purpose,
    amount: fields.amount,
    currency: 'KES',
    phone: fields.phone,
    paymentMethodId: fields.paymentMethodId,
    subscription: plan !== null && seats !== null && billingCycle !== null ? { plan, seats, billingCycle } : null,
    checkoutUrl: fields.status === 'pending' ? fields.checkoutUrl : null,
    failureReason: fields.failureReason,
    receiptNumber: fields.receiptNumber,
    invoiceNumber: fields.invoiceNumber,
    transferReference: fields.channel === 'bank_transfer' ? fields.accountReference : null,
    mpesaReceiptNumber: fields.mpesaReceiptNumber,
    createdAt: fields.createdAt,
    completedAt: fields.completedAt,
  };
}
