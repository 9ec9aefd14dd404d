// What the app uses of the wallets module.

export { walletRoutes } from './routes.js';
export { walletSharedSchemas } from './schemas.js';
