export {
  type ActiveApiKey,
  apiKeyEnvironmentOf,
  type CreateApiKeyInput,
  type CreatedApiKey,
  createApiKey,
  findActiveApiKey,
  type GeneratedApiKey,
  generateApiKey,
  hashApiKeySecret,
  revokeApiKey,
  touchApiKey,
  touchApiKeys,
} from './api-keys.js';
export {
  type CreateDatabaseOptions,
  connectionUrlOf,
  createDatabase,
  type Database,
  type DatabaseDriver,
  type DatabaseExecutor,
  type DatabaseHandle,
  queryRows,
  redactConnectionUrl,
  type Schema,
  type Transaction,
} from './client.js';
export * from './enums.js';
export { isUuid, uuidPattern } from './ids.js';
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
export { findRepositoryRoot, localDataDir, localPgliteDataDir } from './local-data-dir.js';
export { countAppliedMigrations, migrateDatabase, migrationsFolder } from './migrate.js';
export {
  type NotificationContent,
  type NotifyUserInput,
  notifyOrganizationMembers,
  notifyUser,
} from './notifications.js';
export * as schema from './schema/index.js';
export * from './schema/index.js';
export {
  DEMO_ORGANIZATION_ID,
  DEMO_USER_ID,
  type DemoData,
  OTHER_ORGANIZATION_ID,
  OTHER_USER_ID,
  seedDemoData,
} from './seed.js';
