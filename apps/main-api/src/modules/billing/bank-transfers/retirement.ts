import type { Transaction } from '@platform/db';
import { RETIREMENT_SOURCE, recordRefundDue, voidForRetirement } from '../payments/index.js';
import { unappliedAmountOf } from './amounts.js';
import { confirmationsOf, lockPendingTransfersOf } from './repository.js';

/** Money already received for a transfer of an organization being retired: to refund, and to alarm about once. */
export interface RefundDueAtRetirement {
  reference: string;
  amount: number;
}

interface TransfersRetired {
  /** Invoices voided: nothing had been received for them. */
  voided: number;
  refundsDue: RefundDueAtRetirement[];
}

/**
 * The bank transfers of an organization being retired, in its retirement's transaction
 * (docs/decisions.md#retired-organizations-take-no-money): an invoice still awaited is voided (its payment cancelled),
 * so it can no longer be paid, unless part of its money was recorded already, which is then to refund (refund_due).
 * Transfers another transaction holds right now (a confirmation, the expiry job) are left to it: it locked the
 * organization's row after this one, so it finds the organization retired.
 */
export async function voidTransfersOfRetiredOrganization(
  tx: Transaction,
  organizationId: string,
  now: Date,
): Promise<TransfersRetired> {
  const pending = await lockPendingTransfersOf(tx, organizationId);
  const retired: TransfersRetired = { voided: 0, refundsDue: [] };
  for (const payment of pending) {
    const received = unappliedAmountOf(await confirmationsOf(tx, [payment.id]));
    if (received === 0) {
      if ((await voidForRetirement(tx, payment, now)) !== undefined) retired.voided += 1;
    } else if ((await recordRefundDue(tx, payment, { source: RETIREMENT_SOURCE, retiredAt: now, now })) !== undefined) {
      retired.refundsDue.push({ reference: payment.reference, amount: received });
    }
  }
  return retired;
}
