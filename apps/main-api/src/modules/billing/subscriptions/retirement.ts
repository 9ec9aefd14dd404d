import type { MailSubscription, Transaction } from '@platform/db';
import { type AuditContext, PLATFORM_JOB, recordAuditEvent } from '../../audit/index.js';
import { lockOrganizationForMoney } from '../payments/index.js';
import { addCredit, paymentCreditReference } from './credit-balance.js';
import { lockChargingChangeOf } from './payment-rows-repository.js';
import { finishChange, lockSubscription, updateSubscriptionAt } from './repository.js';
import { NO_SCHEDULED_CHANGE } from './scheduled-change.js';

const RETIRED = 'The organization was closed';

/**
 * Ends the mail subscription of an organization being retired (docs/decisions.md#organization-deletion,
 * docs/decisions.md#retired-organizations-take-no-money): a running one (active or past_due) is canceled and leaves the
 * renewal queue, so its saved card is never charged again, and a change or renewal still being paid for ends: failed,
 * so that whatever its payment brings in later activates nothing (it is recorded to refund), or, when its payment
 * already came in (a renewal invoice paid ahead of its date), superseded with the money added to the credit balance,
 * where every charge that could no longer apply goes. Runs in the retirement's transaction, with the organization's
 * row held FOR UPDATE; true when there was a subscription to cancel.
 */
export async function cancelSubscriptionOfRetiredOrganization(
  tx: Transaction,
  audit: AuditContext,
  organizationId: string,
  now: Date,
): Promise<boolean> {
  const subscription = await lockSubscription(tx, organizationId);
  if (subscription === undefined) return false;
  await endChargingChange(tx, subscription, now);
  if (subscription.status !== 'active' && subscription.status !== 'past_due') return false;
  await updateSubscriptionAt(tx, subscription, subscription.version, {
    status: 'canceled',
    renewalDueAt: null,
    cancelAtPeriodEnd: false,
    canceledAt: subscription.canceledAt ?? now,
    endedAt: now,
    pastDueSince: null,
    renewalFailures: 0,
    ...NO_SCHEDULED_CHANGE,
  });
  await recordAuditEvent(tx, audit, {
    organizationId,
    action: 'subscription.canceled',
    targetType: 'subscription',
    targetId: subscription.id,
    details: { from: subscription.status, to: 'canceled', reason: 'organization_retired' },
  });
  return true;
}

async function endChargingChange(tx: Transaction, subscription: MailSubscription, now: Date): Promise<void> {
  const charging = await lockChargingChangeOf(tx, subscription.id);
  if (charging === undefined) return;
  const { change, payment } = charging;
  if (payment?.status !== 'succeeded') {
    await finishChange(tx, change, { status: 'failed', at: now, failureReason: RETIRED });
    return;
  }
  const why = `${RETIRED} before the period this payment was for began`;
  await finishChange(tx, change, { status: 'superseded', at: now, failureReason: why });
  await addCredit(tx, subscription, {
    amount: payment.amount,
    reason: 'unapplied_charge',
    reference: paymentCreditReference(payment),
    description: why,
  });
}

/**
 * What a job that claimed a subscription (FOR UPDATE SKIP LOCKED) may do with it, once it holds its organization's row
 * too (docs/decisions.md#retired-organizations-take-no-money): `open`, go on; `busy`, a retirement (or a rename) holds
 * the organization's row, so the job leaves the subscription for a later round instead of waiting there while holding
 * the subscription the retirement needs next; `retired`, the organization was retired (before retirements ended
 * subscriptions, one may still run): it is ended now, as a retirement ends it, and nothing is charged or sent.
 */
export async function standingOfClaimed(
  tx: Transaction,
  subscription: MailSubscription,
  now: Date,
): Promise<'open' | 'busy' | 'retired'> {
  const organization = await lockOrganizationForMoney(tx, subscription.organizationId, { skipLocked: true });
  if (organization === undefined) return 'busy';
  if (organization.retiredAt === null) return 'open';
  await cancelSubscriptionOfRetiredOrganization(tx, PLATFORM_JOB, subscription.organizationId, now);
  return 'retired';
}
