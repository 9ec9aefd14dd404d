// What billing uses of invoices: the issuer payments call when a bank transfer starts, the route that shows one, the
// invoice the dashboard shows and how many are unpaid (the dashboard's Home).

export { invoiceIssuer } from './issue.js';
export { invoiceRoutes } from './routes.js';
export { paymentInvoice, unpaidInvoiceCount } from './service.js';
