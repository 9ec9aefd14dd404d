export { buildApp, type MainApiApp, type MainApiDeps } from './app.js';
export {
  type AuthenticatedUser,
  createTokenVerifier,
  InvalidTokenError,
  KeySetUnavailableError,
  type TokenKeys,
  type TokenVerifier,
  type TokenVerifierOptions,
} from './auth/token-verifier.js';
export { type SignAccessTokenOptions, signAccessToken } from './auth/tokens.js';
export {
  type AvatarStorageConfig,
  type LogLevel,
  loadMainApiConfig,
  type MainApiConfig,
  type MainApiEnv,
  MainApiEnvSchema,
  type S3StorageConfig,
  type TokenKeySource,
} from './config.js';
export { createOutboxMailSender } from './mail/outbox.js';
export { openSignedInCookie, type SignedInCookieInput } from './modules/dashboard/index.js';
export { createAvatarStorage } from './storage/from-config.js';
export { createLocalFolderStorage, type LocalFolderStorageOptions } from './storage/local-folder.js';
export type { ObjectStorage, ObjectToStore, StoredObject } from './storage/object-storage.js';
export { createS3Storage } from './storage/s3.js';
