import type { DatabaseExecutor } from '@platform/db';
import { decodeCursor, pageOf } from '@platform/pagination';
import { unappliedByTransfer } from '../bank-transfers/index.js';
import { listRefundDueRows } from './repository.js';
import type { RefundDueView } from './schemas.js';
import { toRefundDueView } from './view.js';

/**
 * GET /v1/finance/refunds-due (docs/decisions.md#retired-organizations-take-no-money): the money that arrived for
 * retired organizations, newest first, a page at a time: what a provider took (a card, an M-Pesa payment) for its
 * amount, and what finance recorded for a bank transfer in all.
 */
export async function listRefundsDue(
  db: DatabaseExecutor,
  page: { limit: number; cursor: string | undefined },
): Promise<{ refunds: RefundDueView[]; nextCursor: string | null }> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
  const rows = await listRefundDueRows(db, { after, limit: page.limit + 1 });
  const { page: shown, nextCursor } = pageOf(rows, page.limit, (row) => ({
    createdAt: row.position,
    id: row.payment.id,
  }));
  const transfers = shown.filter((row) => row.payment.channel === 'bank_transfer').map((row) => row.payment.id);
  const received = await unappliedByTransfer(db, transfers);
  return { refunds: shown.map((row) => toRefundDueView(row, received.get(row.payment.id))), nextCursor };
}
