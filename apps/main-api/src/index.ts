export { buildApp, type MainApiApp, type MainApiDeps } from './app.js';
export {
  loadMainApiConfig,
  MainApiEnvSchema,
  type AvatarStorageConfig,
  type LogLevel,
  type MainApiConfig,
  type MainApiEnv,
  type S3StorageConfig,
  type TokenKeySource,
} from './config.js';
export { signAccessToken, type SignAccessTokenOptions } from './auth/tokens.js';
export {
  createTokenVerifier,
  InvalidTokenError,
  KeySetUnavailableError,
  type AuthenticatedUser,
  type TokenKeys,
  type TokenVerifier,
  type TokenVerifierOptions,
} from './auth/token-verifier.js';
export type { ObjectStorage, ObjectToStore, StoredObject } from './storage/object-storage.js';
export { createLocalFolderStorage, type LocalFolderStorageOptions } from './storage/local-folder.js';
export { createS3Storage } from './storage/s3.js';
export { createAvatarStorage } from './storage/from-config.js';
