// What billing uses of invoices: the issuer payments call when a bank transfer starts, the route that shows one, and the invoice the dashboard shows.

export { invoiceIssuer } from './issue.js';
export { invoiceRoutes } from './routes.js';
export { paymentInvoice } from './service.js';
