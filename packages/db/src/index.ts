export * as schema from './schema/index.js';
export * from './schema/index.js';
export * from './enums.js';
export {
  connectionUrlOf,
  redactConnectionUrl,
  createDatabase,
  type CreateDatabaseOptions,
  type Database,
  type DatabaseDriver,
  type DatabaseExecutor,
  type DatabaseHandle,
  queryRows,
  type Schema,
  type Transaction,
} from './client.js';
export { countAppliedMigrations, migrateDatabase, migrationsFolder } from './migrate.js';
export { findRepositoryRoot, localDataDir, localPgliteDataDir } from './local-data-dir.js';
export {
  type ActiveApiKey,
  apiKeyEnvironmentOf,
  createApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
  findActiveApiKey,
  type GeneratedApiKey,
  generateApiKey,
  hashApiKeySecret,
  revokeApiKey,
  touchApiKey,
  touchApiKeys,
} from './api-keys.js';
export {
  type NotificationContent,
  notifyOrganizationMembers,
  notifyUser,
  type NotifyUserInput,
} from './notifications.js';
export {
  DEMO_ORGANIZATION_ID,
  DEMO_USER_ID,
  type DemoData,
  OTHER_ORGANIZATION_ID,
  OTHER_USER_ID,
  seedDemoData,
} from './seed.js';
export {
  captureHold,
  ensureWallet,
  HoldAlreadyResolvedError,
  InsufficientFundsError,
  ledgerBalances,
  type Movement,
  type MovementResult,
  placeHold,
  releaseHold,
  topUpWallet,
  type WalletBalances,
  type WalletRef,
} from './ledger.js';
