import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp, loadBackendApiConfig } from '@platform/backend-api';
import type { DatabaseHandle } from '@platform/db';
import { generateDocumentKeyEntry } from '@platform/document-vault';

// backend-api as the journeys run it beside main-api: on the same database, serving the API and the hosted page (at
// VERIFY_HOST, which the journey's browser maps to it), delivering callbacks, and writing documents to a store both
// services open with one master key.

/**
 * The hosted page's host in verificationUrl; the browser resolves it to backend-api. A *.localhost name, which
 * Chromium treats as a secure context, as it treats the https page of production: it applies the page's
 * Cross-Origin-Opener-Policy there.
 */
export const VERIFY_HOST = 'verify.localhost';
/** VERIFY_URL: what backend-api puts in verificationUrl, and the public address Smile ID calls back. */
export const VERIFY_URL = `http://${VERIFY_HOST}`;

/** A document store on disk with a new master key: the variables both services read it with. */
export interface DocumentStore {
  directory: string;
  env: Record<string, string>;
  remove(): Promise<void>;
}

export async function createDocumentStore(): Promise<DocumentStore> {
  const directory = await mkdtemp(path.join(tmpdir(), 'e2e-documents-'));
  return {
    directory,
    env: {
      DOCUMENT_ENCRYPTION_KEY: generateDocumentKeyEntry('e2e'),
      DOCUMENT_STORAGE: 'local',
      DOCUMENT_LOCAL_DIR: directory,
    },
    remove: () => rm(directory, { recursive: true, force: true }),
  };
}

export interface RunningBackendApi {
  url: string;
  port: number;
  /** The browser's host rule that sends the hosted page's host to this server. */
  hostRule: string;
  close(): Promise<void>;
}

/** Starts backend-api on a free port with the journeys' settings, `env` over them. */
export async function startBackendApi(
  database: DatabaseHandle,
  options: { platformOrganizationId: string; documents: DocumentStore; env?: NodeJS.ProcessEnv },
): Promise<RunningBackendApi> {
  const backend = buildApp(
    { database },
    loadBackendApiConfig({
      LOG_LEVEL: 'silent',
      VERIFY_URL,
      HOSTED_PAGE_SECRET: 'an-e2e-hosted-page-secret-of-32-chars!!',
      PLATFORM_ORGANIZATION_ID: options.platformOrganizationId,
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_DELIVERY_INTERVAL_MS: '100',
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      VERIFICATION_EXPIRY_INTERVAL_MS: '0',
      VERIFICATION_RETENTION_INTERVAL_MS: '0',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...options.documents.env,
      ...options.env,
    }),
  );
  await backend.listen({ host: '127.0.0.1', port: 0 });
  const { port } = backend.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hostRule: `MAP ${VERIFY_HOST} 127.0.0.1:${port}`,
    close: async () => {
      await backend.close();
    },
  };
}
