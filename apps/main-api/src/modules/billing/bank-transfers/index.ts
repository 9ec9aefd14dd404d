// What billing uses of bank transfers: the finance staff's routes and their schemas, and the expiry job.

export { expireBankTransfers, type TransferExpiryRound } from './expiry.js';
export { financeRoutes } from './routes.js';
export { bankTransferSharedSchemas } from './schemas.js';
