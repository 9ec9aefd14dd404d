import path from 'node:path';
import { type Static, Type } from '@sinclair/typebox';
import { DocumentKeyringError } from './errors.js';
import { type DocumentKeyring, generateDocumentKeyEntry, parseDocumentKeyring } from './keyring.js';
import { createLocalFolderObjectStore } from './local-folder.js';
import type { PrivateObjectStore } from './object-store.js';
import { createS3ObjectStore, type S3ObjectStoreOptions } from './s3.js';
import { createDocumentVault, type DocumentVault } from './vault.js';

// The vault's configuration, read the same way by every service that reads identity documents (backend-api stores
// them, main-api's reviewers read them): the variables, their checks and the vault they build live here once, so
// both services name and refuse the same things (docs/decisions.md#private-document-storage).

/** The DOCUMENT_* environment variables; a service's own schema spreads `.properties` into its own. */
export const DocumentVaultEnvSchema = Type.Object({
  /**
   * Encrypts identity documents and submitted details: `<keyId>:<base64 of 32 bytes>`, more comma-separated entries
   * to read older documents (docs/decisions.md#document-key-rotation). Required on a deployment (DATABASE_URL);
   * without it (embedded database) a key per process, so documents do not outlive it.
   */
  DOCUMENT_ENCRYPTION_KEY: Type.Optional(Type.String({ minLength: 1 })),
  /** Where identity documents are kept (encrypted): a local folder (one instance) or an S3-compatible bucket. */
  DOCUMENT_STORAGE: Type.Union([Type.Literal('local'), Type.Literal('s3')], { default: 'local' }),
  /** The local folder (DOCUMENT_STORAGE=local), default .data/documents; never served. */
  DOCUMENT_LOCAL_DIR: Type.Optional(Type.String({ minLength: 1 })),
  /** The documents' own private bucket (DOCUMENT_STORAGE=s3), never the avatars' public one. */
  DOCUMENT_S3_BUCKET: Type.Optional(Type.String({ minLength: 1 })),
  DOCUMENT_S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  /** An S3-compatible endpoint (MinIO, R2, ...): path-style requests. Unset: AWS S3. */
  DOCUMENT_S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://' })),
  DOCUMENT_S3_ACCESS_KEY_ID: Type.Optional(Type.String({ minLength: 1 })),
  DOCUMENT_S3_SECRET_ACCESS_KEY: Type.Optional(Type.String({ minLength: 1 })),
});

export type DocumentVaultEnv = Static<typeof DocumentVaultEnvSchema>;

export type DocumentStorageConfig = { kind: 'local'; directory: string } | ({ kind: 's3' } & S3ObjectStoreOptions);

/** The vault's validated configuration. */
export interface DocumentVaultConfig {
  /**
   * The master keys (KeyObjects: printing the config shows no key material). Undefined only off a deployment: the
   * vault then makes a key for its process.
   */
  keyring: DocumentKeyring | undefined;
  storage: DocumentStorageConfig;
}

/** A variable at fault and why, in the shape the services' config loaders report (ConfigProblem). */
export interface DocumentConfigProblem {
  name: string;
  message: string;
}

export interface DocumentVaultConfigOptions {
  /**
   * On an external database (DATABASE_URL) the service is deployed, usually as several instances that must read
   * each other's documents: DOCUMENT_ENCRYPTION_KEY is then required.
   */
  deployed: boolean;
  /** Anchors a relative DOCUMENT_LOCAL_DIR (and the default .data/documents); the process's folder by default. */
  cwd?: string;
}

/**
 * Reads and checks the DOCUMENT_* variables. Every problem is pushed to `problems` (naming the variable, never a
 * key); the answer is undefined when there was one.
 */
export function documentVaultConfigFrom(
  env: DocumentVaultEnv,
  problems: DocumentConfigProblem[],
  { deployed, cwd = process.cwd() }: DocumentVaultConfigOptions,
): DocumentVaultConfig | undefined {
  const before = problems.length;
  const keyring = keyringOf(env, problems, deployed);
  const storage = storageOf(env, problems, cwd);
  if (problems.length > before || storage === undefined) return undefined;
  return { keyring, storage };
}

function keyringOf(env: DocumentVaultEnv, problems: DocumentConfigProblem[], deployed: boolean) {
  if (env.DOCUMENT_ENCRYPTION_KEY === undefined) {
    if (deployed) {
      problems.push({
        name: 'DOCUMENT_ENCRYPTION_KEY',
        message:
          'DOCUMENT_ENCRYPTION_KEY is required when DATABASE_URL is set: <keyId>:<base64 of 32 bytes>, the same on ' +
          'every instance (a key per process could not read the documents another instance or an earlier one stored)',
      });
    }
    return undefined;
  }
  try {
    return parseDocumentKeyring(env.DOCUMENT_ENCRYPTION_KEY);
  } catch (error) {
    if (!(error instanceof DocumentKeyringError)) throw error;
    // The message names the variable and the entry at fault, never a key.
    problems.push({ name: error.variable, message: error.message });
    return undefined;
  }
}

function storageOf(
  env: DocumentVaultEnv,
  problems: DocumentConfigProblem[],
  cwd: string,
): DocumentStorageConfig | undefined {
  if ((env.DOCUMENT_S3_ACCESS_KEY_ID === undefined) !== (env.DOCUMENT_S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push({
      name: 'DOCUMENT_S3_ACCESS_KEY_ID',
      message: 'DOCUMENT_S3_ACCESS_KEY_ID and DOCUMENT_S3_SECRET_ACCESS_KEY must be set together',
    });
  }
  if (env.DOCUMENT_STORAGE === 'local') {
    return { kind: 'local', directory: path.resolve(cwd, env.DOCUMENT_LOCAL_DIR ?? '.data/documents') };
  }
  if (env.DOCUMENT_S3_BUCKET === undefined) {
    problems.push({
      name: 'DOCUMENT_S3_BUCKET',
      message: 'DOCUMENT_S3_BUCKET is required when DOCUMENT_STORAGE is s3',
    });
    return undefined;
  }
  return {
    kind: 's3',
    bucket: env.DOCUMENT_S3_BUCKET,
    region: env.DOCUMENT_S3_REGION,
    ...(env.DOCUMENT_S3_ENDPOINT === undefined ? {} : { endpoint: env.DOCUMENT_S3_ENDPOINT }),
    ...(env.DOCUMENT_S3_ACCESS_KEY_ID === undefined ? {} : { accessKeyId: env.DOCUMENT_S3_ACCESS_KEY_ID }),
    ...(env.DOCUMENT_S3_SECRET_ACCESS_KEY === undefined ? {} : { secretAccessKey: env.DOCUMENT_S3_SECRET_ACCESS_KEY }),
  };
}

/**
 * The vault a configuration names: the local folder or the documents' own bucket, under its keyring. Without a
 * keyring (allowed off a deployment only) a key is made for this process and `warn` is called once: what it stores
 * cannot be read after a restart, nor by another process.
 */
export function documentVaultFromConfig(
  config: DocumentVaultConfig,
  { warn }: { warn: (message: string) => void },
): DocumentVault {
  let keyring = config.keyring;
  if (keyring === undefined) {
    keyring = parseDocumentKeyring(generateDocumentKeyEntry('ephemeral'));
    warn(
      'DOCUMENT_ENCRYPTION_KEY is not set: identity documents are encrypted under a key made for this process ' +
        'and cannot be read after it stops, nor by another service. Set it (openssl rand -base64 32, as ' +
        '<keyId>:<base64>) to keep them.',
    );
  }
  return createDocumentVault({ keyring, store: documentStoreOf(config.storage) });
}

function documentStoreOf(storage: DocumentStorageConfig): PrivateObjectStore {
  if (storage.kind === 'local') return createLocalFolderObjectStore({ directory: storage.directory });
  const { kind: _kind, ...options } = storage;
  return createS3ObjectStore(options);
}
