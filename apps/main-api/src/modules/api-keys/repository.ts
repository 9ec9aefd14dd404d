import type { DatabaseExecutor } from '@platform/db';
import { apiKeys } from '@platform/db/schema/api-keys';
import { and, desc, eq, isNull } from 'drizzle-orm';

/** The organization's keys, newest first; revoked ones only when asked for. Selects no secret material. */
export function findOrganizationApiKeys(
  db: DatabaseExecutor,
  organizationId: string,
  options: { includeRevoked: boolean },
) {
  return db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      environment: apiKeys.environment,
      lastFour: apiKeys.lastFour,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      permissions: apiKeys.permissions,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.organizationId, organizationId), options.includeRevoked ? undefined : isNull(apiKeys.revokedAt)),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/**
 * Sets `revokedAt` on one of the organization's active keys: `revoked` when this call revoked it,
 * `already_revoked` for a key revoked before (its first revocation time stays), `not_found` when the organization
 * has no key with that id (`id` must be a UUID).
 */
export async function setOrganizationApiKeyRevoked(
  db: DatabaseExecutor,
  organizationId: string,
  id: string,
  now: Date,
): Promise<'revoked' | 'already_revoked' | 'not_found'> {
  const ofOrganization = and(eq(apiKeys.id, id), eq(apiKeys.organizationId, organizationId));
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(ofOrganization, isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (revoked.length > 0) return 'revoked';
  const [existing] = await db.select({ id: apiKeys.id }).from(apiKeys).where(ofOrganization);
  return existing === undefined ? 'not_found' : 'already_revoked';
}
