// What the app uses of the wallets module, and the dashboard: the wallets and their low-balance threshold.

export { walletRoutes } from './routes.js';
export type { OrganizationWalletView } from './schemas.js';
export { walletSharedSchemas } from './schemas.js';
export { listOrganizationWallets, updateLowBalanceThreshold } from './service.js';
