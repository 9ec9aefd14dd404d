import type { Payment, Transaction } from '@platform/db';

/**
 * What other modules do when a payment succeeds, inside the transaction that records the success (so it
 * happens exactly once, or not at all).
 */
export interface PaymentSuccessHooks {
  /** A mail subscription purchase was paid: start (or replace) the organization's subscription. */
  onMailSubscriptionPaid(tx: Transaction, payment: Payment): Promise<void>;
}
