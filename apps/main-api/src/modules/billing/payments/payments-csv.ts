import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { PaymentView } from './schemas.js';

// The CSV export of the payment list (docs/decisions.md#billing-documents): RFC 4180 (CRLF, a header row, text
// quoted), one row a payment with the fields of its JSON form, the subscription terms in columns of their own. Written
// a page at a time as the pages are read, so an export of any size holds one page in memory.

const COLUMNS: Array<{ key: string; header: string; value: (payment: PaymentView) => string | number | null }> = [
  { key: 'createdAt', header: 'createdAt', value: (payment) => payment.createdAt },
  { key: 'completedAt', header: 'completedAt', value: (payment) => payment.completedAt },
  { key: 'reference', header: 'reference', value: (payment) => payment.reference },
  { key: 'receiptNumber', header: 'receiptNumber', value: (payment) => payment.receiptNumber },
  { key: 'invoiceNumber', header: 'invoiceNumber', value: (payment) => payment.invoiceNumber },
  { key: 'status', header: 'status', value: (payment) => payment.status },
  { key: 'purpose', header: 'purpose', value: (payment) => payment.purpose },
  { key: 'method', header: 'method', value: (payment) => payment.method },
  { key: 'channel', header: 'channel', value: (payment) => payment.channel },
  { key: 'amount', header: 'amount', value: (payment) => payment.amount },
  { key: 'currency', header: 'currency', value: (payment) => payment.currency },
  { key: 'plan', header: 'plan', value: (payment) => payment.subscription?.plan ?? null },
  { key: 'seats', header: 'seats', value: (payment) => payment.subscription?.seats ?? null },
  { key: 'billingCycle', header: 'billingCycle', value: (payment) => payment.subscription?.billingCycle ?? null },
  { key: 'phone', header: 'phone', value: (payment) => payment.phone },
  { key: 'paymentMethodId', header: 'paymentMethodId', value: (payment) => payment.paymentMethodId },
  { key: 'transferReference', header: 'transferReference', value: (payment) => payment.transferReference },
  { key: 'mpesaReceiptNumber', header: 'mpesaReceiptNumber', value: (payment) => payment.mpesaReceiptNumber },
  { key: 'failureReason', header: 'failureReason', value: (payment) => payment.failureReason },
];

// A spreadsheet runs a cell that starts with one of these as a formula (OWASP, CSV injection): such text is written
// with a leading apostrophe, which makes it text again. Numbers are ours and written as they are.
const FORMULA_START = /^[=+\-@\t\r]/;

/** Text a spreadsheet shows as text, never runs. */
function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function csvOf(payments: PaymentView[], header: boolean): string {
  const records = payments.map((payment) =>
    Object.fromEntries(COLUMNS.map((column) => [column.key, column.value(payment)])),
  );
  return stringify(records, {
    header,
    columns: COLUMNS.map(({ key, header: name }) => ({ key, header: name })),
    quoted_string: true,
    record_delimiter: 'windows',
    cast: { string: neutralizeFormula },
  });
}

/** The CSV of every payment the pages hold: the header row, then each page's rows as that page arrives. */
export function paymentsCsv(pages: AsyncIterable<PaymentView[]>): Readable {
  async function* chunks(): AsyncGenerator<string> {
    yield csvOf([], true);
    for await (const page of pages) yield csvOf(page, false);
  }
  return Readable.from(chunks(), { objectMode: false });
}
