import type { PaymentMethod } from '@platform/db';
import type { PaymentMethodView } from './schemas.js';

/** A saved method as the API shows it: never its authorization code or the email the card belongs to. */
export function toPaymentMethodView(method: PaymentMethod): PaymentMethodView {
  return {
    id: method.id,
    type: method.type,
    card:
      method.type === 'card' && method.last4 !== null
        ? {
            brand: method.brand,
            last4: method.last4,
            expMonth: method.expMonth,
            expYear: method.expYear,
            bank: method.bank,
          }
        : null,
    phone: method.type === 'mobile_money' ? method.phone : null,
    createdAt: method.createdAt.toISOString(),
    lastUsedAt: method.lastUsedAt?.toISOString() ?? null,
  };
}
