import {
  apiTimeOf,
  type Database,
  type Payment,
  type PaymentMethodKind,
  type PaymentPurpose,
  type PaymentStatus,
  preparedPerDatabase,
  prepareWithRowsMapper,
} from '@platform/db';
import { invoices, receipts } from '@platform/db/schema/billing-documents';
import { payments } from '@platform/db/schema/payments';
import { cursorTimeOf, type PagePosition } from '@platform/pagination';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';

export interface PaymentListQuery {
  organizationId: string;
  status: PaymentStatus | undefined;
  method: PaymentMethodKind | undefined;
  purpose: PaymentPurpose | undefined;
  /** Started at or after this time. */
  from: Date | undefined;
  /** Started before this time. */
  to: Date | undefined;
  /** Only the payments after this position (a decoded cursor). */
  after: PagePosition | undefined;
  limit: number;
}

/** What a payment's answer is made of, its times already written as the API writes them (ISO, milliseconds). */
export type PaymentViewFields = Pick<
  Payment,
  | 'reference'
  | 'status'
  | 'method'
  | 'channel'
  | 'purpose'
  | 'amount'
  | 'phone'
  | 'paymentMethodId'
  | 'plan'
  | 'seats'
  | 'billingCycle'
  | 'checkoutUrl'
  | 'failureReason'
  | 'accountReference'
  | 'mpesaReceiptNumber'
> & { receiptNumber: string | null; invoiceNumber: string | null; createdAt: string; completedAt: string | null };

/** A payment of a list, with its id and position for the next page's cursor. */
export interface PaymentListRow {
  id: string;
  position: string;
  fields: PaymentViewFields;
}

/** Which filters a list query has: each set of them is its own prepared statement. */
type ListFilters = Record<'status' | 'method' | 'purpose' | 'from' | 'to' | 'after', boolean>;

// The list as prepared statements, one per set of filters present (at most 64), built once per database with
// placeholders and read by position into the answer's shape: building the query and mapping 50 rows of every payment
// column through drizzle cost the service four times the CPU of the query itself
// (docs/benchmarks.md#the-payments-list-get-v1billingpayments-26-nov). Each condition stays one the index
// payments_organization_idx serves, so a page deep in a long list is read from the cursor on.
const listStatements = preparedPerDatabase(() => new Map<string, ReturnType<typeof prepareList>>());

/** The statement's name, and its key among a database's list statements: which filters it has, as bits. */
function listStatementName(filters: ListFilters): string {
  return `payments_list_${Object.values(filters)
    .map((present) => (present ? 1 : 0))
    .join('')}`;
}

function prepareList(db: Database, filters: ListFilters) {
  const placeholder = (name: string) => sql.placeholder(name);
  const conditions: SQL[] = [sql`${payments.organizationId} = ${placeholder('organizationId')}::uuid`];
  if (filters.status) conditions.push(sql`${payments.status} = ${placeholder('status')}::text`);
  if (filters.method) conditions.push(sql`${payments.method} = ${placeholder('method')}::text`);
  if (filters.purpose) conditions.push(sql`${payments.purpose} = ${placeholder('purpose')}::text`);
  if (filters.from) conditions.push(sql`${payments.createdAt} >= ${placeholder('from')}::timestamptz`);
  if (filters.to) conditions.push(sql`${payments.createdAt} < ${placeholder('to')}::timestamptz`);
  if (filters.after) {
    conditions.push(
      sql`(${payments.createdAt}, ${payments.id}) < (${placeholder('afterAt')}::timestamptz, ${placeholder('afterId')}::uuid)`,
    );
  }
  return prepareWithRowsMapper(
    db,
    listStatementName(filters),
    db
      .select({
        id: payments.id,
        position: cursorTimeOf(payments.createdAt),
        reference: payments.reference,
        status: payments.status,
        method: payments.method,
        channel: payments.channel,
        purpose: payments.purpose,
        amount: payments.amount,
        phone: payments.phone,
        paymentMethodId: payments.paymentMethodId,
        plan: payments.plan,
        seats: payments.seats,
        billingCycle: payments.billingCycle,
        checkoutUrl: payments.checkoutUrl,
        failureReason: payments.failureReason,
        receiptNumber: receipts.number,
        invoiceNumber: invoices.number,
        accountReference: payments.accountReference,
        mpesaReceiptNumber: payments.mpesaReceiptNumber,
        createdAt: apiTimeOf(payments.createdAt),
        completedAt: apiTimeOf<string | null>(payments.completedAt),
      })
      .from(payments)
      .leftJoin(receipts, eq(receipts.paymentId, payments.id))
      .leftJoin(invoices, eq(invoices.paymentId, payments.id))
      .where(and(...conditions))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(sql.placeholder('limit')),
    (rows) => rows.map(listRowOf),
  );
}

/** A row of the list statement (its cells in select order) as the answer shows the payment. */
function listRowOf(cells: unknown[]): PaymentListRow {
  const [id, position, reference, status, method, channel, purpose, amount, phone, paymentMethodId, plan, seats] =
    cells as [
      string,
      string,
      string,
      Payment['status'],
      Payment['method'],
      Payment['channel'],
      Payment['purpose'],
      string | number,
      string | null,
      string | null,
      Payment['plan'],
      number | null,
    ];
  const [
    billingCycle,
    checkoutUrl,
    failureReason,
    receiptNumber,
    invoiceNumber,
    accountReference,
    mpesaReceiptNumber,
    createdAt,
    completedAt,
  ] = cells.slice(12) as [
    Payment['billingCycle'],
    string | null,
    string | null,
    string | null,
    string | null,
    string | null,
    string | null,
    string,
    string | null,
  ];
  return {
    id,
    position,
    fields: {
      reference,
      status,
      method,
      channel,
      purpose,
      amount: Number(amount),
      phone,
      paymentMethodId,
      plan,
      seats,
      billingCycle,
      checkoutUrl,
      failureReason,
      accountReference,
      mpesaReceiptNumber,
      receiptNumber,
      invoiceNumber,
      createdAt,
      completedAt,
    },
  };
}

/**
 * Up to `limit` of the organization's payments that match, newest first, each with its id and position for the next page's cursor (served by payments_organization_idx). Runs on the database itself, never in a
 * transaction (a prepared statement per database).
 */
export function listPaymentRows(db: Database, query: PaymentListQuery): Promise<PaymentListRow[]> {
  const filters: ListFilters = {
    status: query.status !== undefined,
    method: query.method !== undefined,
    purpose: query.purpose !== undefined,
    from: query.from !== undefined,
    to: query.to !== undefined,
    after: query.after !== undefined,
  };
  const statements = listStatements(db);
  const key = listStatementName(filters);
  let statement = statements.get(key);
  if (statement === undefined) {
    statement = prepareList(db, filters);
    statements.set(key, statement);
  }
  return statement.execute({
    organizationId: query.organizationId,
    status: query.status,
    method: query.method,
    purpose: query.purpose,
    from: query.from?.toISOString(),
    to: query.to?.toISOString(),
    afterAt: query.after?.createdAt,
    afterId: query.after?.id,
    limit: query.limit,
  });
}
