// What billing uses of receipts: the issuer payments call at the end of every success, and the route that shows one.

export { receiptIssuer } from './issue.js';
export { receiptRoutes } from './routes.js';
