import type { ApiKey, ApiKeyEnvironment, ApiKeyPermission, DatabaseExecutor } from '@platform/db';
import { apiKeys } from '@platform/db/schema/api-keys';
import { and, asc, count, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';

// Every statement on api_keys. The functions take the executor first.

export async function insertApiKey(
  db: DatabaseExecutor,
  values: {
    organizationId: string;
    environment: ApiKeyEnvironment;
    name?: string;
    secretHash: string;
    lastFour: string;
    createdByUserId: string | null;
    rateLimitPerMinute: number | null;
    permissions: ApiKeyPermission[];
  },
): Promise<ApiKey | undefined> {
  const [row] = await db.insert(apiKeys).values(values).returning();
  return row;
}

/** Sets revoked_at on the key if it is active (and in the organization, when given); the ids it revoked. */
export function revokeActiveApiKey(db: DatabaseExecutor, input: { id: string; organizationId?: string; now?: Date }) {
  return db
    .update(apiKeys)
    .set({ revokedAt: input.now ?? sql`now()` })
    .where(
      and(
        eq(apiKeys.id, input.id),
        isNull(apiKeys.revokedAt),
        input.organizationId === undefined ? undefined : eq(apiKeys.organizationId, input.organizationId),
      ),
    )
    .returning({ id: apiKeys.id });
}

/** Sets revoked_at on every active key of the organization; the ids it revoked. */
export function revokeActiveApiKeysOf(db: DatabaseExecutor, organizationId: string, now: Date) {
  return db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
}

/** The key stored under a secret's hash, revoked or not. */
export async function findApiKeyBySecretHash(db: DatabaseExecutor, secretHash: string) {
  const [row] = await keyBySecretHash(db).execute({ secretHash });
  return row;
}

function prepareKeyBySecretHash(db: DatabaseExecutor) {
  return db
    .select({
      id: apiKeys.id,
      organizationId: apiKeys.organizationId,
      environment: apiKeys.environment,
      rateLimitPerMinute: apiKeys.rateLimitPerMinute,
      permissions: apiKeys.permissions,
      revokedAt: apiKeys.revokedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.secretHash, sql.placeholder('secretHash')))
    .limit(1)
    .prepare('api_key_by_secret_hash');
}

// The lookup runs on every request of the API-key service: prepared once per database handle, drizzle
// builds its SQL once and postgres.js keeps it parsed per connection, which made it several times cheaper
// than building and parsing it per request (docs/benchmarks.md).
const keyLookups = new WeakMap<DatabaseExecutor, ReturnType<typeof prepareKeyBySecretHash>>();

function keyBySecretHash(db: DatabaseExecutor) {
  let lookup = keyLookups.get(db);
  if (lookup === undefined) {
    lookup = prepareKeyBySecretHash(db);
    keyLookups.set(db, lookup);
  }
  return lookup;
}

/** Sets last_used_at to `now` on the keys whose last_used_at is null or before `staleBefore`; the ids it wrote. */
export async function touchApiKeysUsedBefore(
  db: DatabaseExecutor,
  ids: readonly string[],
  now: Date,
  staleBefore: Date,
): Promise<string[]> {
  const touched = await db
    .update(apiKeys)
    .set({ lastUsedAt: now })
    .where(and(inArray(apiKeys.id, ids), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, staleBefore))))
    .returning({ id: apiKeys.id });
  return touched.map((row) => row.id);
}

/** The organization's active keys, oldest first (the operator commands of backend-api). */
export function listActiveApiKeys(db: DatabaseExecutor, organizationId: string): Promise<ApiKey[]> {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
}

/** How many active keys the organization has; with `above`, only those whose own limit is higher. */
export async function countActiveApiKeys(
  db: DatabaseExecutor,
  organizationId: string,
  above?: number,
): Promise<number> {
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
