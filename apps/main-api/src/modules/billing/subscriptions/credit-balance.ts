import type { CreditBalanceReason, MailSubscription, Transaction } from '@platform/db';
import { insertCreditEntry, moveCachedCreditBalance } from './credit-balance-repository.js';

// The organization's credit balance: whole KES that duplicate purchases and unapplied payments leave behind, used
// first by later subscription charges (upgrades, renewals) and never paid out. Every movement is a row in
// credit_balance_entries, once per (reason, reference); mail_subscriptions.credit_balance caches the sum
// and changes in the same transaction, its CHECK (>= 0) making an overdraw impossible. The database refuses
// edits and deletes of entries and, at commit, a cache that is not their sum (migration 0008). Callers hold
// the subscription row's lock (FOR UPDATE), so movements of one organization happen one at a time.

export interface CreditMovement {
  /** Whole KES above 0. */
  amount: number;
  reason: CreditBalanceReason;
  /** What caused it: `change:<id>` or `payment:<reference>`. */
  reference: string;
  description: string;
}

/** The reference of a credit movement a payment caused (its money added to the credit balance). */
export function paymentCreditReference(payment: { reference: string }): string {
  return `payment:${payment.reference}`;
}

/** Adds credit. False (and nothing changes) when this movement was recorded before. */
export function addCredit(tx: Transaction, subscription: MailSubscription, movement: CreditMovement): Promise<boolean> {
  return record(tx, subscription, movement, movement.amount);
}

/** Uses credit; the CHECK on the cached balance refuses more than there is. False when recorded before. */
export function useCredit(tx: Transaction, subscription: MailSubscription, movement: CreditMovement): Promise<boolean> {
  return record(tx, subscription, movement, -movement.amount);
}

async function record(
  tx: Transaction,
  subscription: MailSubscription,
  movement: CreditMovement,
  signed: number,
): Promise<boolean> {
  if (!Number.isSafeInteger(movement.amount) || movement.amount <= 0) {
    throw new RangeError(`A credit movement must be a whole number of KES above 0 (got ${movement.amount})`);
  }
  const recorded = await insertCreditEntry(tx, {
    organizationId: subscription.organizationId,
    amount: signed,
    reason: movement.reason,
    reference: movement.reference,
    description: movement.description,
  });
  if (!recorded) return false;
  await moveCachedCreditBalance(tx, subscription.id, signed);
  return true;
}
