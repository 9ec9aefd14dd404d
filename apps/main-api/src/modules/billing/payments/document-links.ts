// Where a member opens a payment's receipt or invoice in a browser: the dashboard's pages, signed in by its cookie
// (the API's `/v1/billing/payments/:reference/receipt` wants a bearer token, which a link in a notification or an
// email cannot carry). Every notification that links a document links these (docs/decisions.md#dashboard-pages).

/** The dashboard's payment history; a payment's documents are under it. */
const DASHBOARD_PAYMENTS_PATH = '/dashboard/billing/payments';

/**
 * The receipt of a payment, in the dashboard; with its organization (`?org=`) for a link that leaves the dashboard (a
 * notification), so it opens for a member of several organizations whichever one they looked at last.
 */
export function receiptPageOf(paymentReference: string, organizationId?: string): string {
  return documentPage(paymentReference, 'receipt', organizationId);
}

/** The invoice of a bank transfer, in the dashboard (with its organization, as a receipt's). */
export function invoicePageOf(paymentReference: string, organizationId?: string): string {
  return documentPage(paymentReference, 'invoice', organizationId);
}

function documentPage(paymentReference: string, kind: 'receipt' | 'invoice', organizationId: string | undefined) {
  const path = `${DASHBOARD_PAYMENTS_PATH}/${encodeURIComponent(paymentReference)}/${kind}`;
  return organizationId === undefined ? path : `${path}?org=${encodeURIComponent(organizationId)}`;
}
