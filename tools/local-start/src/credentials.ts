import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createApiKey, findActiveApiKey } from '@platform/api-keys';
import { creditWallet } from '@platform/backend-api';
import type { Database, DemoData, MembershipRole } from '@platform/db';
import { ensureWebhookEndpoint } from '@platform/webhooks';

export interface LocalCredentials {
  mainUrl: string;
  backendUrl: string;
  userId: string;
  /** The demo user's token: the demo organization's owner (the same as `tokens.owner`). */
  token: string;
  organizationId: string;
  /** A token for a member of the demo organization in each role. */
  tokens: Record<MembershipRole, string>;
  /**
   * The demo organization's reviewer (the same as `tokens.reviewer`): the local start makes that organization the
   * platform's own, so this token decides live sessions in the review console and on /v1/reviews.
   */
  reviewerToken: string;
  /** A user with a profile and no organization: may create one or accept an invitation. */
  newUserToken: string;
  /** A user without a profile, as one signing up: POST /v1/accounts creates it. */
  noProfileToken: string;
  otherUserId: string;
  otherToken: string;
  otherOrganizationId: string;
  liveApiKey: string;
  testApiKey: string;
  /** The demo organization's callback signing secrets, to verify callbacks with (e.g. the standardwebhooks library). */
  webhookSecrets: { live: string; test: string };
  /** The front-end SDK's demo page; its origin is an allowed origin of the demo organization's test sessions. */
  sdkDemoUrl: string;
  /** The customers' dashboard: sign in through the local identity provider with a code from the outbox. */
  dashboardUrl: string;
  /** The local identity provider's issuer (never deployed). */
  identityProviderUrl: string;
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

/**
 * The demo organization's signing secrets, read straight from the database (created on first use). A member
 * could instead reveal each once through main-api; the local start shows them every time for convenience.
 */
export async function demoWebhookSecrets(db: Database, demo: DemoData): Promise<{ live: string; test: string }> {
  const secretOf = async (environment: 'live' | 'test') =>
    (await ensureWebhookEndpoint(db, { organizationId: demo.organizationId, environment })).secret;
  return { live: await secretOf('live'), test: await secretOf('test') };
}

/** What the local start puts in each of the demo organization's wallets, once (not again on a restart). */
export const DEMO_WALLET_CREDIT_KES = 10_000;

/**
 * Credits the demo organization's live and test wallets, so sessions can be created at once. The fixed
 * references make it happen once per data folder: a restart finds them and credits nothing.
 */
export async function creditDemoWallets(db: Database, demo: DemoData): Promise<void> {
  for (const environment of ['live', 'test'] as const) {
    await creditWallet(db, {
      organizationId: demo.organizationId,
      environment,
      amount: DEMO_WALLET_CREDIT_KES,
      reference: `seed:local-start:${environment}`,
      description: 'Local start demo credit',
    });
  }
}

export function writeCredentials(file: string, credentials: LocalCredentials): void {
  writeFileSync(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}
