import type { ApiKeyOwner, Transaction, Wallet } from '@platform/db';
import { notifyOrganizationMembers } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import { enqueueWebhookEvent } from '@platform/webhooks';
import { referenceSubjectOf } from './references.js';
import { clearLowBalanceAlert, markLowBalanceAlerted } from './repository.js';

// Low-balance alerts (docs/decisions.md#low-balance-alerts). Each wallet may have a threshold; the hold that takes
// the available balance from at or above it to below it tells the organization's members (in-app) and sends
// `wallet.balance_low` to the environment's callback endpoint, in the hold's transaction. The wallet row keeps when
// that alert was sent, and no hold alerts again until a top-up brings the available balance back to the threshold.
// Every movement holds the wallet's row lock, so concurrent holds see each other's alert.

export const LOW_BALANCE_EVENT = 'wallet.balance_low';

/** The callback body's `data` of `wallet.balance_low`. */
export interface LowBalanceEventData {
  environment: Wallet['environment'];
  currency: 'KES';
  /** After the hold that crossed the threshold. */
  available: number;
  held: number;
  lowBalanceThreshold: number;
  /** The session whose hold crossed it; null for a hold of something else. */
  sessionId: string | null;
}

/**
 * Called by placeHold, under the wallet's lock, with the wallet before and after the hold. Sends the alert when the
 * hold crossed the threshold and the alert is armed; returns the wallet as it is afterwards.
 */
export async function alertIfBalanceLow(
  tx: Transaction,
  ref: ApiKeyOwner,
  { before, after, reference, now }: { before: Wallet; after: Wallet; reference: string; now: Date },
): Promise<Wallet> {
  const threshold = after.lowBalanceThreshold;
  if (threshold === null || after.lowBalanceAlertedAt !== null) return after;
  if (before.availableBalance < threshold || after.availableBalance >= threshold) return after;

  const marked = await markLowBalanceAlerted(tx, after.id, now);
  if (marked === undefined) throw new Error('The wallet disappeared while it was locked');
  await notifyOrganizationMembers(tx, ref.organizationId, {
    title: 'Wallet balance low',
    message:
      `The ${ref.environment} wallet has ${formatKes(after.availableBalance)} available, below the alert threshold ` +
      `of ${formatKes(threshold)}. Top it up to keep verifications running.`,
    type: 'warning',
  });
  const data: LowBalanceEventData = {
    environment: ref.environment,
    currency: 'KES',
    available: after.availableBalance,
    held: after.heldBalance,
    lowBalanceThreshold: threshold,
    sessionId: referenceSubjectOf(reference).sessionId,
  };
  // No URL of its own: the environment's default callback URL as it is at delivery time.
  await enqueueWebhookEvent(tx, { ...ref, type: LOW_BALANCE_EVENT, data: { ...data }, targetUrl: null, now });
  return marked;
}

/** Called by topUpWallet, under the wallet's lock: money back at or above the threshold re-arms the alert. */
export async function rearmAfterTopUp(tx: Transaction, after: Wallet): Promise<Wallet> {
  if (after.lowBalanceAlertedAt === null) return after;
  const threshold = after.lowBalanceThreshold;
  if (threshold !== null && after.availableBalance < threshold) return after;
  return (await clearLowBalanceAlert(tx, after.id)) ?? after;
}
