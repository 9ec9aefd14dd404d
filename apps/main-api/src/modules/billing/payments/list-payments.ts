import type { Database, PaymentMethodKind, PaymentPurpose, PaymentStatus } from '@platform/db';
import { decodeCursor, type PagePosition, pageOf } from '@platform/pagination';
import { readListPeriod } from '../../../shared/list-period.js';
import { listPaymentRows, type PaymentListQuery } from './list-payments-repository.js';
import type { PaymentView } from './schemas.js';
import { paymentViewOf } from './view.js';

/** Which of the organization's payments a list holds; `from` and `to` as the client wrote them (list-period.ts). */
export interface PaymentFilter {
  status: PaymentStatus | undefined;
  method: PaymentMethodKind | undefined;
  purpose: PaymentPurpose | undefined;
  from: string | undefined;
  to: string | undefined;
}

/**
 * GET /v1/billing/payments: a page of the organization's payments that match, newest first, each as
 * GET /v1/billing/payments/:reference answers it, with the cursor of the next page (null on the last). 400 for a
 * `from` or `to` of neither form, an empty period, or a cursor this API did not return.
 */
export async function listPayments(
  db: Database,
  organizationId: string,
  filter: PaymentFilter & { limit: number; cursor: string | undefined },
): Promise<{ payments: PaymentView[]; nextCursor: string | null }> {
  const query = listQueryOf(organizationId, filter);
  const after = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  const rows = await listPaymentRows(db, { ...query, after, limit: filter.limit + 1 });
  const { page, nextCursor } = pageOf(rows, filter.limit, (row) => ({ createdAt: row.position, id: row.id }));
  return { payments: page.map((row) => paymentViewOf(row.fields)), nextCursor };
}

/** How many payments an export reads at a time. */
const EXPORT_PAGE_SIZE = 500;

/**
 * Every payment of the organization that matches, newest first (after the cursor's payment, when there is one), a
 * page at a time: for the CSV export, which writes each page as it comes instead of holding them all. The filter is
 * checked (400) before the first page is read.
 */
async function* paymentsMatching(
  db: Database,
  organizationId: string,
  filter: PaymentFilter & { cursor: string | undefined },
  pageSize = EXPORT_PAGE_SIZE,
): AsyncGenerator<PaymentView[]> {
  const query = listQueryOf(organizationId, filter);
  let after: PagePosition | undefined = filter.cursor === undefined ? undefined : decodeCursor(filter.cursor);
  for (;;) {
    const rows = await listPaymentRows(db, { ...query, after, limit: pageSize });
    if (rows.length > 0) yield rows.map((row) => paymentViewOf(row.fields));
    const last = rows.at(-1);
    if (last === undefined || rows.length < pageSize) return;
    after = { createdAt: last.position, id: last.id };
  }
}

/**
 * The CSV export's pages: the filter is checked and the first page read before this returns, so a bad filter (400) or
 * an unreachable database (503) is answered as any error is, before the export starts.
 */
export async function paymentExport(
  db: Database,
  organizationId: string,
  filter: PaymentFilter & { cursor: string | undefined },
): Promise<AsyncIterable<PaymentView[]>> {
  const pages = paymentsMatching(db, organizationId, filter);
  const first = await pages.next();
  return (async function* () {
    if (first.done !== true) yield first.value;
    yield* pages;
  })();
}

function listQueryOf(organizationId: string, filter: PaymentFilter): Omit<PaymentListQuery, 'after' | 'limit'> {
  const { from, to } = readListPeriod(filter);
  return { organizationId, status: filter.status, method: filter.method, purpose: filter.purpose, from, to };
}
