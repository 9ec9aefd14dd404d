import type { DatabaseExecutor, Invoice, NewInvoice, PaymentStatus, Transaction } from '@platform/db';
import { invoices, receipts } from '@platform/db/schema/billing-documents';
import { payments } from '@platform/db/schema/payments';
import { and, count, eq } from 'drizzle-orm';

export async function insertInvoice(tx: Transaction, invoice: NewInvoice): Promise<Invoice> {
  const [inserted] = await tx.insert(invoices).values(invoice).returning();
  if (inserted === undefined) throw new Error('Inserting the invoice returned no row');
  return inserted;
}

export async function findInvoiceOfPaymentId(db: DatabaseExecutor, paymentId: string): Promise<Invoice | undefined> {
  const [found] = await db.select().from(invoices).where(eq(invoices.paymentId, paymentId));
  return found;
}

/** An invoice with where its payment stands now: paid (with its receipt), expired, or still awaited. */
export interface InvoiceWithPayment {
  invoice: Invoice;
  status: PaymentStatus;
  completedAt: Date | null;
  receiptNumber: string | null;
}

/** The invoice of the organization's payment `reference`; undefined when it has none or is another's. */
export async function findInvoiceOfPayment(
  db: DatabaseExecutor,
  organizationId: string,
  reference: string,
): Promise<InvoiceWithPayment | undefined> {
  const [found] = await db
    .select({
      invoice: invoices,
      status: payments.status,
      completedAt: payments.completedAt,
      receiptNumber: receipts.number,
    })
    .from(invoices)
    .innerJoin(payments, eq(payments.id, invoices.paymentId))
    .leftJoin(receipts, eq(receipts.paymentId, payments.id))
    .where(and(eq(payments.reference, reference), eq(invoices.organizationId, organizationId)));
  return found;
}

/** How many of the organization's invoices still await their transfer (their payment pending). */
export async function countPendingInvoices(db: DatabaseExecutor, organizationId: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(invoices)
    .innerJoin(payments, eq(payments.id, invoices.paymentId))
    .where(and(eq(invoices.organizationId, organizationId), eq(payments.status, 'pending')));
  return row?.count ?? 0;
}
