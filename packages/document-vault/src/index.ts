export {
  type DocumentConfigProblem,
  type DocumentStorageConfig,
  type DocumentVaultConfig,
  type DocumentVaultConfigOptions,
  type DocumentVaultEnv,
  DocumentVaultEnvSchema,
  documentVaultConfigFrom,
  documentVaultFromConfig,
} from './config.js';
export { DocumentKeyringError, DocumentVaultError, type DocumentVaultErrorCode } from './errors.js';
export {
  type DocumentKeyring,
  generateDocumentKeyEntry,
  type MasterKey,
  parseDocumentKeyring,
} from './keyring.js';
export { createLocalFolderObjectStore, type LocalFolderObjectStoreOptions } from './local-folder.js';
export { isSafeObjectKey, type PrivateObjectStore } from './object-store.js';
export { createS3ObjectStore, type S3ObjectStoreOptions } from './s3.js';
export {
  createDocumentVault,
  type DocumentToStore,
  type DocumentVault,
  type DocumentVaultOptions,
  type ReadDocument,
  type StoredDocument,
} from './vault.js';
