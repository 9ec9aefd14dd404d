// Paystack for cards: the adapter of payments' CardProvider port, and the signed webhook that settles payments.
// The sandbox's card checkout speaks Paystack's transaction format and takes the same code path.

export { toPaystackSubunits } from './amounts.js';
export { createPaystackCardProvider } from './client.js';
export { paystackWebhookRoutes } from './routes.js';
export { applyPaystackTransaction, processPaystackEvent } from './service.js';
export { outcomeOfPaystackTransaction, type PaystackTransaction } from './transaction.js';
