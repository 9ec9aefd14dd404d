import type { Payment } from '@platform/db';
import type { PaymentView } from './schemas.js';

export function toPaymentView(payment: Payment): PaymentView {
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
    createdAt: payment.createdAt.toISOString(),
    completedAt: payment.completedAt?.toISOString() ?? null,
  };
}
