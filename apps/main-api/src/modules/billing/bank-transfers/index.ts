// What billing uses of bank transfers: the finance staff's routes and their schemas, the expiry job, what a retirement
// does to an organization's transfers, and what a transfer's records brought in but did not apply.

export { expireBankTransfers, type TransferExpiryRound } from './expiry.js';
export { type RefundDueAtRetirement, voidTransfersOfRetiredOrganization } from './retirement.js';
export { financeRoutes } from './routes.js';
export { bankTransferSharedSchemas } from './schemas.js';
export { unappliedByTransfer } from './service.js';
