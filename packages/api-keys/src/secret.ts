import { createHash, randomBytes } from 'node:crypto';
import type { ApiKeyEnvironment } from '@platform/db';

const SECRET_RANDOM_BYTES = 32;
const SECRET_PREFIX: Record<ApiKeyEnvironment, string> = { live: 'sk_live_', test: 'sk_test_' };

export interface GeneratedApiKey {
  /** Shown to the customer once; never stored. */
  secret: string;
  secretHash: string;
  lastFour: string;
}

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A fresh secret (`sk_live_` / `sk_test_` + base64url of 32 random bytes) with what gets stored about it. */
export function generateApiKey(environment: ApiKeyEnvironment): GeneratedApiKey {
  const secret = SECRET_PREFIX[environment] + randomBytes(SECRET_RANDOM_BYTES).toString('base64url');
  return { secret, secretHash: hashApiKeySecret(secret), lastFour: secret.slice(-4) };
}

/** The environment a secret's prefix claims, or null when it is not shaped like one of our keys. */
export function apiKeyEnvironmentOf(secret: string): ApiKeyEnvironment | null {
  if (secret.startsWith(SECRET_PREFIX.live)) return 'live';
  if (secret.startsWith(SECRET_PREFIX.test)) return 'test';
  return null;
}
