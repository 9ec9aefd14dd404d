// What the app uses of the wallets module: its routes and schemas, and the services the dashboard's billing pages
// and Settings call.

export { walletRoutes } from './routes.js';
export { MAX_TEST_TOP_UP, type OrganizationWalletView, walletSharedSchemas } from './schemas.js';
export {
  listOrganizationWallets,
  organizationWalletTransactions,
  topUpTestWallet,
  updateLowBalanceThreshold,
} from './service.js';
