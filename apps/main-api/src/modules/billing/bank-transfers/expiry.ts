import { notifyOrganizationMembers } from '@platform/notifications';
import { formatKes } from '@platform/pricing';
import { formatDay } from '../documents/index.js';
import { invoicePageOf, raisePaymentAlarm, type SettlementContext, settleFoundPayment } from '../payments/index.js';
import { claimExpiredTransfer, confirmationsOf } from './repository.js';

/** Transfers expired per round at most; the next round takes the rest. */
const DEFAULT_BATCH_SIZE = 50;

export interface TransferExpiryRound {
  expired: number;
}

/**
 * One round of the bank transfer expiry job (docs/decisions.md#bank-transfer-expiry): every bank transfer still pending
 * 30 days after its invoice expires, one transaction each: the transfer is locked (`FOR UPDATE SKIP LOCKED`, so
 * instances share the work and a confirmation holding it goes first), moved to `expired` through the settlement every
 * payment uses (its status change and audit record), and the organization's members are told, with the invoice's link.
 * One for which finance had recorded money of another amount raises an alarm: money came in and nothing was applied.
 */
export async function expireBankTransfers(deps: {
  ctx: SettlementContext;
  batchSize?: number;
}): Promise<TransferExpiryRound> {
  const { ctx } = deps;
  const batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;
  let expired = 0;
  while (expired < batchSize) {
    const done = await ctx.db.transaction(async (tx) => {
      const now = ctx.now();
      const due = await claimExpiredTransfer(tx, now);
      if (due === undefined) return undefined;
      const { payment, invoiceNumber } = due;
      const settled = await settleFoundPayment(
        tx,
        ctx,
        payment,
        {
          status: 'expired',
          source: 'bank_transfer_expiry',
          reason: 'The bank transfer was not confirmed within 30 days of its invoice',
        },
        now,
      );
      if (settled.kind !== 'changed')
        throw new Error(`Bank transfer ${payment.reference} did not expire although locked`);
      await notifyOrganizationMembers(tx, payment.organizationId, {
        title: 'Invoice expired',
        message:
          `Invoice ${invoiceNumber ?? payment.reference} (${formatKes(payment.amount)}) expired on ${formatDay(now)}: ` +
          'its bank transfer was not confirmed within 30 days, and it can no longer be paid. Start a new payment.',
        type: 'warning',
        actionUrl: invoicePageOf(payment.reference, payment.organizationId),
      });
      return { payment, received: await confirmationsOf(tx, [payment.id]) };
    });
    if (done === undefined) break;
    expired += 1;
    ctx.log.info({ reference: done.payment.reference }, 'Bank transfer expired unconfirmed');
    if (done.received.length > 0) {
      raisePaymentAlarm(
        ctx,
        'unapplied_transfer_expired',
        {
          reference: done.payment.reference,
          organizationId: done.payment.organizationId,
          received: done.received.map((confirmation) => confirmation.amountReceived),
        },
        'A bank transfer expired after money of another amount was recorded for it: staff settle it with the customer',
      );
    }
  }
  return { expired };
}
