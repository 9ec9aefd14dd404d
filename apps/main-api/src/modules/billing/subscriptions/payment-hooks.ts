import type { PaymentHooks } from '../payments/index.js';
import { applyPaidCharge, releaseFailedCharge } from './charge-hooks.js';
import { paidForEarlierPayment } from './earlier-payments.js';
import { creditPaymentExcess } from './payment-excess.js';
import { activatePurchasedSubscription } from './purchase.js';

/**
 * What payments do to mail subscriptions: purchases start them, card charges apply changes and renewals, money paid
 * beyond a payment's amount goes to the credit balance; and what an earlier payment paid for, for its receipt.
 */
export const subscriptionPaymentHooks: PaymentHooks = {
  onMailSubscriptionPaid: activatePurchasedSubscription,
  onSubscriptionChargePaid: applyPaidCharge,
  onSubscriptionChargeFailed: releaseFailedCharge,
  onSubscriptionPaymentExcess: creditPaymentExcess,
  paidForEarlierPayment,
};
