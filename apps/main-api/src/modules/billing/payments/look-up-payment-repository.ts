import { type Database, type Payment, preparedPerDatabase } from '@platform/db';
import { invoices, receipts } from '@platform/db/schema/billing-documents';
import { payments } from '@platform/db/schema/payments';
import { and, eq, sql } from 'drizzle-orm';

/**
 * A payment as the API shows it: with the number of its receipt, null until it has succeeded, and of its invoice, null
 * but for a bank transfer.
 */
export interface PaymentWithReceipt {
  payment: Payment;
  receiptNumber: string | null;
  invoiceNumber: string | null;
}

// The checkout page polls a payment while the payer confirms it (an M-Pesa prompt on the phone): prepared once per
// database, so a poll is one round trip, not a parse and a run (docs/decisions.md#polled-reads-are-prepared-statements).
const organizationPaymentByReference = preparedPerDatabase((db) =>
  db
    .select({ payment: payments, receiptNumber: receipts.number, invoiceNumber: invoices.number })
    .from(payments)
    .leftJoin(receipts, eq(receipts.paymentId, payments.id))
    .leftJoin(invoices, eq(invoices.paymentId, payments.id))
    .where(
      and(
        eq(payments.reference, sql.placeholder('reference')),
        eq(payments.organizationId, sql.placeholder('organizationId')),
      ),
    )
    .prepare('billing_organization_payment'),
);

/** One of the organization's payments by reference; undefined for another organization's. Outside any transaction. */
export async function findOrganizationPayment(
  db: Database,
  organizationId: string,
  reference: string,
): Promise<PaymentWithReceipt | undefined> {
  const [found] = await organizationPaymentByReference(db).execute({ organizationId, reference });
  return found;
}
