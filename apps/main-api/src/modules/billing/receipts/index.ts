// What billing uses of receipts: the issuer payments call at the end of every success, the route that shows one, and the receipt the dashboard shows.

export { receiptIssuer } from './issue.js';
export { receiptRoutes } from './routes.js';
export { paymentReceipt } from './service.js';
