import type { ApiKeyOwner, Transaction, UnitOfWork, Wallet } from '@platform/db';
import { addOrganizationMembersNotification } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import { addWebhookEvent } from '@platform/webhooks';
import { referenceSubjectOf } from './references.js';
import { clearLowBalanceAlert } from './repository.js';

// Low-balance alerts (docs/decisions.md#low-balance-alerts). Each wallet may have a threshold; the hold that takes
// the available balance from at or above it to below it tells the organization's members (in-app) and sends
// `wallet.balance_low` to the environment's callback endpoint, in the hold's transaction. The wallet row keeps when
// that alert was sent, and no hold alerts again until a top-up brings the available balance back to the threshold.
// The hold's own statement decides the crossing and records the alert's time under the wallet's row lock
// (movements-repository.ts, addHoldWrite), so of concurrent holds exactly one alerts.

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
 * Called by the hold once its statement crossed the threshold and recorded the alert (`after` carries its time):
 * adds the members' notifications and the callback to the hold's unit of work, which sends them in one more
 * statement before its COMMIT (their text names the balance the hold left).
 */
export function addLowBalanceAlert(
  work: UnitOfWork,
  ref: ApiKeyOwner,
  { after, reference, now }: { after: Wallet; reference: string; now: Date },
): void {
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
  addOrganizationMembersNotification(work, ref.organizationId, {
    title: 'Wallet balance low',
    message:
      `The ${ref.environment} wallet has ${formatKes(after.availableBalance)} available, below the alert threshold ` +
      `of ${formatKes(threshold)}. Top it up to keep verifications running.`,
    type: 'warning',
    // The dashboard's Billing page, where the wallet is topped up (docs/decisions.md#dashboard-pages).
    actionUrl: '/dashboard/billing',
  });
  // No URL of its own: the environment's default callback URL as it is at delivery time.
  addWebhookEvent(work, { ...ref, type: LOW_BALANCE_EVENT, data: { ...data }, targetUrl: null, now });
}

/** Called by topUpWallet, under the wallet's lock: money back at or above the threshold re-arms the alert. */
export async function rearmAfterTopUp(tx: Transaction, after: Wallet): Promise<Wallet> {
  if (after.lowBalanceAlertedAt === null) return after;
  const threshold = after.lowBalanceThreshold;
  if (threshold !== null && after.availableBalance < threshold) return after;
  return (await clearLowBalanceAlert(tx, after.id)) ?? after;
}
