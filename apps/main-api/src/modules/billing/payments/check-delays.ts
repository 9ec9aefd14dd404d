import type { PaymentChannel } from '@platform/db';
import type { PaymentsConfig } from '../config.js';

// When the reconciliation job first asks a provider about a payment (docs/decisions.md#payment-reconciliation): set
// when the payment starts, by the pay route and by the subscription charges alike.

/**
 * M-Pesa prompts are checked once the customer had time to answer; card checkouts when they run out of
 * time (the webhook normally settles them first); saved-card charges answer at once, so one still
 * pending is checked soon after.
 */
export function checkDelayOf(config: PaymentsConfig, channel: PaymentChannel, saved: boolean): number {
  if (channel === 'mobile_money') return config.reconciliation.mobileMoneyCheckAfterMs;
  return saved ? confirmationDelayOf(config) : config.reconciliation.cardCheckoutExpireAfterMs;
}

/**
 * When a card payment whose answer never came is first looked up: late enough for a request still inside
 * the provider to have finished, soon enough for a retry to learn the outcome.
 */
export function confirmationDelayOf(config: PaymentsConfig): number {
  return 2 * config.providerTimeoutMs;
}
