import type { ApiKey, Database, Organization } from '@platform/db';
import { apiKeys } from '@platform/db/schema/api-keys';
import { organizations } from '@platform/db/schema/organizations';
import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';

// The operator commands' own queries: organizations and their keys as an operator sees them. What a module
// owns (a wallet's credit and balances) the commands reach through that module's index.ts.

export async function findOrganization(db: Database, id: string): Promise<Organization | undefined> {
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, id));
  return organization;
}

/** Sets (or with null removes) the organization's key rate-limit maximum; its name, or undefined if unknown. */
export async function updateKeyRateLimitMaximum(
  db: Database,
  organizationId: string,
  max: number | null,
): Promise<{ name: string } | undefined> {
  const [organization] = await db
    .update(organizations)
    .set({ maxKeyRateLimitPerMinute: max })
    .where(eq(organizations.id, organizationId))
    .returning({ name: organizations.name });
  return organization;
}

/** The organization's active keys, oldest first. */
export function listActiveApiKeys(db: Database, organizationId: string): Promise<ApiKey[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/** How many active keys the organization has; with `above`, only those whose own limit is higher. */
export async function countActiveApiKeys(db: Database, organizationId: string, above?: number): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.organizationId, organizationId),
        isNull(apiKeys.revokedAt),
        above === undefined ? undefined : gt(apiKeys.rateLimitPerMinute, above),
      ),
    );
  return row?.count ?? 0;
}
