// What billing uses of invoices: the issuer payments call when a bank transfer starts, and the route that shows one.

export { invoiceIssuer } from './issue.js';
export { invoiceRoutes } from './routes.js';
