import { type ApiKeyOwner, sendRiders, type Transaction, type Wallet } from '@platform/db';
import { organizationMembersNotificationRider } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import { webhookEventRider } from '@platform/webhooks';
import { referenceSubjectOf } from './references.js';
import { clearLowBalanceAlert } from './repository.js';

// Low-balance alerts (docs/decisions.md#low-balance-alerts). Each wallet may have a threshold; the hold that takes
// the available balance from at or above it to below it tells the organization's members (in-app) and sends
// `wallet.balance_low` to the environment's callback endpoint, in the hold's transaction. The wallet row keeps when
// that alert was sent, and no hold alerts again until a top-up brings the available balance back to the threshold.
// The hold's own statement decides the crossing and records the alert's time under the wallet's row lock
// (repository.ts, placeHoldStatement), so of concurrent holds exactly one alerts.

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
 * Called by placeHold after a hold whose statement crossed the threshold and recorded the alert (`after` carries its
 * time): tells the members and queues the callback, in one statement of the hold's transaction.
 */
export async function sendLowBalanceAlert(
  tx: Transaction,
  ref: ApiKeyOwner,
  { after, reference, now }: { after: Wallet; reference: string; now: Date },
): Promise<void> {
  const threshold = after.lowBalanceThreshold;
  if (threshold === null) throw new Error('A low-balance alert needs a threshold');
  const data: LowBalanceEventData = {
    environment: ref.environment,
    currency: 'KES',
    available: after.availableBalance,
    held: after.heldBalance,
    lowBalanceThreshold: threshold,
    sessionId: referenceSubjectOf(reference).sessionId,
  };
  await sendRiders(tx, [
    organizationMembersNotificationRider(ref.organizationId, {
      title: 'Wallet balance low',
      message:
        `The ${ref.environment} wallet has ${formatKes(after.availableBalance)} available, below the alert threshold ` +
        `of ${formatKes(threshold)}. Top it up to keep verifications running.`,
      type: 'warning',
    }),
    // No URL of its own: the environment's default callback URL as it is at delivery time.
    webhookEventRider({ ...ref, type: LOW_BALANCE_EVENT, data: { ...data }, targetUrl: null, now }),
  ]);
}

/** Called by topUpWallet, under the wallet's lock: money back at or above the threshold re-arms the alert. */
export async function rearmAfterTopUp(tx: Transaction, after: Wallet): Promise<Wallet> {
  if (after.lowBalanceAlertedAt === null) return after;
  const threshold = after.lowBalanceThreshold;
  if (threshold !== null && after.availableBalance < threshold) return after;
  return (await clearLowBalanceAlert(tx, after.id)) ?? after;
}
