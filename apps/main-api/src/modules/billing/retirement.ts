import type { DatabaseExecutor, Transaction } from '@platform/db';
import type { PlatformMetrics } from '@platform/http';
import type { AuditContext } from '../audit/index.js';
import { type RefundDueAtRetirement, voidTransfersOfRetiredOrganization } from './bank-transfers/index.js';
import {
  countPendingWithProviders,
  hasPaymentHistory,
  type PaymentLog,
  paymentAlarmsIn,
  raisePaymentAlarm,
} from './payments/index.js';
import { cancelSubscriptionOfRetiredOrganization, hasCreditHistory } from './subscriptions/index.js';

// What retiring an organization does to its billing (docs/decisions.md#retired-organizations-take-no-money), in the
// retirement's transaction, which holds the organization's row FOR UPDATE: its subscription ends (with the change
// being paid for), and its bank transfers awaited are voided. Payments whose outcome a provider holds (a card checkout,
// an M-Pesa prompt, a card charge) stay as they are: no provider can withdraw them, the reconciliation job keeps asking
// about them, and whatever they bring in is recorded to refund, never applied.

export interface BillingRetirement {
  subscriptionCanceled: boolean;
  transfersVoided: number;
  /** Payments left with their providers (card checkouts and charges, M-Pesa prompts): what they bring is refunded. */
  paymentsWithProviders: number;
  /** Transfers for which money had already arrived: to refund. */
  refundsDue: RefundDueAtRetirement[];
}

export async function endBillingOfRetiredOrganization(
  tx: Transaction,
  audit: AuditContext,
  organizationId: string,
  now: Date,
): Promise<BillingRetirement> {
  // The subscription (and the change it is being paid for) first: a voided transfer then finds no change to end.
  const subscriptionCanceled = await cancelSubscriptionOfRetiredOrganization(tx, audit, organizationId, now);
  const transfers = await voidTransfersOfRetiredOrganization(tx, organizationId, now);
  return {
    subscriptionCanceled,
    transfersVoided: transfers.voided,
    paymentsWithProviders: await countPendingWithProviders(tx, organizationId),
    refundsDue: transfers.refundsDue,
  };
}

/** Once the retirement committed: an alarm for each transfer whose money already arrived, now to refund. */
export function alarmRefundsDueAtRetirement(
  metrics: PlatformMetrics,
  log: PaymentLog,
  organizationId: string,
  refundsDue: readonly RefundDueAtRetirement[],
): void {
  const ctx = { log, alarms: paymentAlarmsIn(metrics) };
  for (const refund of refundsDue) {
    raisePaymentAlarm(
      ctx,
      'retired_organization_payment',
      { organizationId, ...refund },
      'An organization was retired after money for one of its bank transfers had arrived: nothing was applied, it is listed to refund',
    );
  }
} /**
 * True when the organization's billing ever moved money: a credit balance movement, or a payment (whatever its
 * outcome) (docs/decisions.md#organization-deletion).
 */
export async function hasBillingHistory(db: DatabaseExecutor, organizationId: string): Promise<boolean> {
  return (await hasCreditHistory(db, organizationId)) || (await hasPaymentHistory(db, organizationId));
}
