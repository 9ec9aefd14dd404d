import path from 'node:path';
import {
  createDocumentVault,
  createLocalFolderObjectStore,
  createS3ObjectStore,
  type DocumentVault,
  generateDocumentKeyEntry,
  type PrivateObjectStore,
  parseDocumentKeyring,
} from '@platform/document-vault';
import type { BackendApiConfig } from '../config.js';

/**
 * The identity-document vault the configuration names (docs/decisions.md#private-document-storage): the local
 * folder or the documents' own bucket, under DOCUMENT_ENCRYPTION_KEY. Without a key (only allowed on the embedded
 * database: the config refuses DATABASE_URL without one) a key is made for this process and `warn` is called once:
 * what it stores cannot be read after a restart.
 */
export function documentVaultOf(config: BackendApiConfig, warn: (message: string) => void): DocumentVault {
  let keyring = config.DOCUMENT_ENCRYPTION_KEY;
  if (keyring === undefined) {
    keyring = generateDocumentKeyEntry('ephemeral');
    warn(
      'DOCUMENT_ENCRYPTION_KEY is not set: identity documents are encrypted under a key made for this process ' +
        'and cannot be read after it stops. Set it (openssl rand -base64 32, as <keyId>:<base64>) to keep them.',
    );
  }
  return createDocumentVault({ keyring: parseDocumentKeyring(keyring), store: documentStoreOf(config) });
}

function documentStoreOf(config: BackendApiConfig): PrivateObjectStore {
  if (config.DOCUMENT_STORAGE === 'local') {
    return createLocalFolderObjectStore({ directory: path.resolve(config.DOCUMENT_LOCAL_DIR ?? '.data/documents') });
  }
  // The config requires the bucket with DOCUMENT_STORAGE=s3.
  const bucket = config.DOCUMENT_S3_BUCKET ?? '';
  return createS3ObjectStore({
    bucket,
    region: config.DOCUMENT_S3_REGION,
    ...(config.DOCUMENT_S3_ENDPOINT === undefined ? {} : { endpoint: config.DOCUMENT_S3_ENDPOINT }),
    ...(config.DOCUMENT_S3_ACCESS_KEY_ID === undefined ? {} : { accessKeyId: config.DOCUMENT_S3_ACCESS_KEY_ID }),
    ...(config.DOCUMENT_S3_SECRET_ACCESS_KEY === undefined
      ? {}
      : { secretAccessKey: config.DOCUMENT_S3_SECRET_ACCESS_KEY }),
  });
}
