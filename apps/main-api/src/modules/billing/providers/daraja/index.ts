// Safaricom Daraja for M-Pesa Express: the adapter of payments' MobileMoneyProvider port, and the callback route
// that settles payments. The sandbox's M-Pesa speaks Daraja's formats and takes the same code path.

export { createDarajaMobileMoneyProvider } from './client.js';
export { darajaTimestamp } from './password.js';
export { outcomeOfStkQuery, STILL_PROCESSING_ERROR_CODE, stillProcessing, stkResults } from './results.js';
export { MPESA_CALLBACK_PATH, mpesaCallbackRoutes } from './routes.js';
export { processStkCallback } from './service.js';
