import { type ApiKeyEnvironment, type ApiKeyPermission, type DatabaseExecutor, isUuid } from '@platform/db';
import {
  findApiKeyBySecretHash,
  insertApiKey,
  revokeActiveApiKey,
  revokeActiveApiKeysOf,
  touchApiKeysUsedBefore,
} from './repository.js';
import { apiKeyEnvironmentOf, generateApiKey, hashApiKeySecret } from './secret.js';

export interface CreateApiKeyInput {
  organizationId: string;
  environment: ApiKeyEnvironment;
  name?: string;
  createdByUserId?: string | null;
  rateLimitPerMinute?: number | null;
  /** What the key may do beyond the API's default (docs/decisions.md#verified-data); default none. */
  permissions?: readonly ApiKeyPermission[];
}

export interface CreatedApiKey {
  id: string;
  organizationId: string;
  /** The only time the secret is available. */
  secret: string;
  environment: ApiKeyEnvironment;
  lastFour: string;
  name: string;
  rateLimitPerMinute: number | null;
  permissions: ApiKeyPermission[];
  createdAt: Date;
}

export interface ActiveApiKey {
  id: string;
  organizationId: string;
  environment: ApiKeyEnvironment;
  rateLimitPerMinute: number | null;
  /** What the key may do beyond the defaults (`verified_data:read`: the verified data and the export). */
  permissions: readonly ApiKeyPermission[];
}

export async function createApiKey(db: DatabaseExecutor, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const { secret, secretHash, lastFour } = generateApiKey(input.environment);
  const row = await insertApiKey(db, {
    organizationId: input.organizationId,
    environment: input.environment,
    ...(input.name === undefined ? {} : { name: input.name }),
    secretHash,
    lastFour,
    createdByUserId: input.createdByUserId ?? null,
    rateLimitPerMinute: input.rateLimitPerMinute ?? null,
    // Each permission once, in the list's order, whatever order the caller gave.
    permissions: [...new Set(input.permissions ?? [])].sort(),
  });
  if (row === undefined) throw new Error('Inserting the API key returned no row');
  return {
    id: row.id,
    organizationId: row.organizationId,
    secret,
    environment: row.environment,
    lastFour: row.lastFour,
    name: row.name,
    rateLimitPerMinute: row.rateLimitPerMinute,
    permissions: row.permissions,
    createdAt: row.createdAt,
  };
}

/**
 * Revokes an active key, optionally only within one organization. True when this call revoked it; false
 * when no active key matched (unknown id, another organization's key, or already revoked).
 */
export async function revokeApiKey(
  db: DatabaseExecutor,
  input: { id: string; organizationId?: string; now?: Date },
): Promise<boolean> {
  // A malformed id cannot match any key; checking here spares PostgreSQL's "invalid input syntax for uuid".
  if (!isUuid(input.id)) return false;
  if (input.organizationId !== undefined && !isUuid(input.organizationId)) return false;
  const revoked = await revokeActiveApiKey(db, input);
  return revoked.length > 0;
}

/** Revokes every active key of an organization (when it is retired); how many it revoked. */
export async function revokeOrganizationApiKeys(
  db: DatabaseExecutor,
  organizationId: string,
  now: Date,
): Promise<number> {
  return (await revokeActiveApiKeysOf(db, organizationId, now)).length;
}

/**
 * The active key a secret belongs to, or null when the secret is unknown, revoked, or its prefix names
 * another environment than the stored key. This runs on every authenticated request: one indexed lookup,
 * no writes (backend-api records lastUsedAt after the answer, at most once a minute: touchApiKeys).
 */
export async function findActiveApiKey(db: DatabaseExecutor, secret: string): Promise<ActiveApiKey | null> {
  const claimedEnvironment = apiKeyEnvironmentOf(secret);
  if (claimedEnvironment === null) return null;
  const row = await findApiKeyBySecretHash(db, hashApiKeySecret(secret));
  if (row === undefined || row.revokedAt !== null || row.environment !== claimedEnvironment) return null;
  return {
    id: row.id,
    organizationId: row.organizationId,
    environment: row.environment,
    rateLimitPerMinute: row.rateLimitPerMinute,
    permissions: row.permissions,
  };
}

const DEFAULT_TOUCH_INTERVAL_MS = 60_000;

/**
 * Records that a key was used. Writes only when the stored lastUsedAt is older than `minIntervalMs`
 * (default one minute), so callers may call it per request without a write per request.
 * True when it wrote.
 */
export async function touchApiKey(
  db: DatabaseExecutor,
  id: string,
  options: { now?: Date; minIntervalMs?: number } = {},
): Promise<boolean> {
  return (await touchApiKeys(db, [id], options)).length > 0;
}

/**
 * touchApiKey for many keys in one statement: sets lastUsedAt to `now` on those whose stored lastUsedAt is
 * null or older than `minIntervalMs`, so instances recording the same keys write each about once per
 * interval between them. Returns the ids it wrote; ids that are not UUIDs are skipped.
 */
export async function touchApiKeys(
  db: DatabaseExecutor,
  ids: readonly string[],
  options: { now?: Date; minIntervalMs?: number } = {},
): Promise<string[]> {
  const valid = ids.filter((id) => isUuid(id));
  if (valid.length === 0) return [];
  const now = options.now ?? new Date();
  const staleBefore = new Date(now.getTime() - (options.minIntervalMs ?? DEFAULT_TOUCH_INTERVAL_MS));
  return touchApiKeysUsedBefore(db, valid, now, staleBefore);
}
