import { createApiKey } from '@platform/api-keys';
import { type ApiKeyEnvironment, type Database, isUuid } from '@platform/db';
import { apiKeys, organizations } from '@platform/db/schema';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ApiKeyView, CreatedApiKeyView } from './schemas.js';

/** The visible start of every secret of an environment (`sk_live_`, `sk_test_`). */
function secretPrefixOf(environment: ApiKeyEnvironment): 'sk_live_' | 'sk_test_' {
  return environment === 'live' ? 'sk_live_' : 'sk_test_';
}

export interface NewApiKeyRequest {
  organizationId: string;
  userId: string;
  environment: ApiKeyEnvironment;
  /** Already trimmed and checked. */
  name: string;
  rateLimitPerMinute?: number;
}

/** Creates a key for the organization; the returned secret is never available again. */
export async function issueApiKey(db: Database, request: NewApiKeyRequest): Promise<CreatedApiKeyView> {
  const created = await createApiKey(db, {
    organizationId: request.organizationId,
    environment: request.environment,
    name: request.name,
    createdByUserId: request.userId,
    ...(request.rateLimitPerMinute === undefined ? {} : { rateLimitPerMinute: request.rateLimitPerMinute }),
  });
  return {
    id: created.id,
    name: created.name,
    environment: created.environment,
    secret: created.secret,
    lastFour: created.lastFour,
    prefix: secretPrefixOf(created.environment),
    rateLimitPerMinute: created.rateLimitPerMinute,
    createdAt: created.createdAt.toISOString(),
  };
}

/**
 * The highest rateLimitPerMinute the organization's members may give a key: the organization's own maximum
 * (set by operators), or `fallback` (API_KEY_RATE_LIMIT_MAX_PER_MINUTE) when it has none.
 */
export async function keyRateLimitMaxOf(db: Database, organizationId: string, fallback: number): Promise<number> {
  const [organization] = await db
    .select({ max: organizations.maxKeyRateLimitPerMinute })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization?.max ?? fallback;
}

/** The organization's keys, newest first; revoked ones only when asked for. Selects no secret material. */
export async function listApiKeys(
  db: Database,
  organizationId: string,
  options: { includeRevoked: boolean },
): Promise<ApiKeyView[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      environment: apiKeys.environment,
      lastFour: apiKeys.lastFour,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.organizationId, organizationId), options.includeRevoked ? undefined : isNull(apiKeys.revokedAt)),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    environment: row.environment,
    prefix: secretPrefixOf(row.environment),
    lastFour: row.lastFour,
    rateLimitPerMinute: row.rateLimitPerMinute,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

/**
 * Revokes one of the organization's keys. Revoking a key that is already revoked succeeds and keeps the first
 * revocation time. False when the organization has no key with that id (including ids that are not UUIDs).
 */
export async function revokeOrganizationApiKey(
  db: Database,
  organizationId: string,
  id: string,
  now: Date,
): Promise<boolean> {
  if (!isUuid(id)) return false;
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(apiKeys.id, id), eq(apiKeys.organizationId, organizationId)))
    .returning({ id: apiKeys.id });
  return revoked.length > 0;
}
