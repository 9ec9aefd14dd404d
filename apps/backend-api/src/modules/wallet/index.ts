// What the rest of backend-api (the app, the wallets command, the package's exports) uses of the wallet module.

export { walletRoutes } from './routes.js';
export {
  type CreditWalletInput,
  type CreditWalletResult,
  creditWallet,
  walletBalances,
} from './service.js';
