import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDocumentKeyEntry } from '@platform/document-vault';

export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export interface LocalSecrets {
  jwtSecret: string;
  /** DOCUMENT_ENCRYPTION_KEY: identity documents stored by one run must read in the next. */
  documentKey: string;
}

/** The folder that keeps the local start's database, uploads and generated secrets between runs. */
export function prepareDataDir(dir: string, { fresh }: { fresh: boolean }): void {
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

/**
 * A signing secret and a document key generated on the first run and kept, so printed tokens and stored documents
 * survive restarts. A data folder from before the document key gets one added.
 */
export function loadOrCreateSecrets(dir: string): LocalSecrets {
  const file = path.join(dir, 'secrets.json');
  const kept = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<LocalSecrets>) : {};
  if (kept.jwtSecret !== undefined && kept.documentKey !== undefined) return kept as LocalSecrets;
  const secrets: LocalSecrets = {
    jwtSecret: kept.jwtSecret ?? randomBytes(48).toString('base64url'),
    documentKey: kept.documentKey ?? generateDocumentKeyEntry('local'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
