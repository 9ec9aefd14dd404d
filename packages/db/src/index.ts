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
export { findRepositoryRoot, localDataDir, localPgliteDataDir } from './local-data-dir.js';
export { countAppliedMigrations, countCommittedMigrations, migrateDatabase, migrationsFolder } from './migrate.js';
export { preparedPerDatabase, prepareWithRowsMapper } from './prepared-queries.js';
// The tables are in '@platform/db/schema'; their row types are here, for code that handles rows without querying.
export type {
  ApiKey,
  AvatarUpload,
  CreditBalanceEntry,
  DriveFolder,
  IdempotencyRecord,
  LedgerEntry,
  LedgerTransaction,
  MailSubscription,
  MailSubscriptionChange,
  Membership,
  NewApiKey,
  NewAvatarUpload,
  NewDriveFolder,
  NewIdempotencyRecord,
  NewMailSubscription,
  NewMailSubscriptionChange,
  NewMembership,
  NewNotification,
  NewOrganization,
  NewPayment,
  NewPaymentEvent,
  NewPaymentMethod,
  NewUser,
  NewVerificationSession,
  Notification,
  Organization,
  Payment,
  PaymentEvent,
  PaymentMethod,
  User,
  VerificationSession,
  VerificationSessionTransition,
  Wallet,
  WebhookEndpoint,
  WebhookEvent,
} from './schema/index.js';
export {
  DEMO_ORGANIZATION_ID,
  DEMO_USER_ID,
  type DemoData,
  OTHER_ORGANIZATION_ID,
  OTHER_USER_ID,
  seedDemoData,
} from './seed.js';
