import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createApiKey, findActiveApiKey, type Database, type DemoData } from '@platform/db';

export interface LocalCredentials {
  mainUrl: string;
  backendUrl: string;
  userId: string;
  token: string;
  organizationId: string;
  otherUserId: string;
  otherToken: string;
  otherOrganizationId: string;
  liveApiKey: string;
  testApiKey: string;
}

interface StoredKeys {
  liveApiKey?: string;
  testApiKey?: string;
}

function readStoredKeys(file: string): StoredKeys {
  if (!existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StoredKeys;
  } catch {
    return {};
  }
}

/**
 * The demo organization's live and test keys. Secrets are shown once, so they are kept in the
 * credentials file; a key that no longer works (revoked, or the data was wiped) is replaced.
 */
export async function ensureDemoApiKeys(
  db: Database,
  demo: DemoData,
  credentialsFile: string,
): Promise<{ liveApiKey: string; testApiKey: string }> {
  const stored = readStoredKeys(credentialsFile);
  const usable = async (secret: string | undefined, environment: 'live' | 'test') => {
    if (!secret) return undefined;
    const key = await findActiveApiKey(db, secret);
    return key && key.organizationId === demo.organizationId && key.environment === environment ? secret : undefined;
  };
  const create = async (environment: 'live' | 'test') =>
    (await createApiKey(db, { organizationId: demo.organizationId, environment, name: 'Local start' })).secret;

  return {
    liveApiKey: (await usable(stored.liveApiKey, 'live')) ?? (await create('live')),
    testApiKey: (await usable(stored.testApiKey, 'test')) ?? (await create('test')),
  };
}

export function writeCredentials(file: string, credentials: LocalCredentials): void {
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}
