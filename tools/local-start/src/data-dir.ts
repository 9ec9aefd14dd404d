import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

export interface LocalSecrets {
  jwtSecret: string;
}

/** The folder that keeps the local start's database, uploads and generated secrets between runs. */
export function prepareDataDir(dir: string, { fresh }: { fresh: boolean }): void {
  if (fresh) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
}

/** A signing secret generated on the first run and kept, so printed tokens survive restarts. */
export function loadOrCreateSecrets(dir: string): LocalSecrets {
  const file = path.join(dir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as LocalSecrets;
  const secrets: LocalSecrets = { jwtSecret: randomBytes(48).toString('base64url') };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
