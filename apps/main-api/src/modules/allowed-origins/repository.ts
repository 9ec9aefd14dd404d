import type { AllowedOrigins, ApiKeyEnvironment, DatabaseExecutor } from '@platform/db';
import { allowedOrigins } from '@platform/db/schema/allowed-origins';
import { eq } from 'drizzle-orm';

// The allowed origins' queries: one row per organization and environment, written whole.

export async function allowedOriginRows(db: DatabaseExecutor, organizationId: string): Promise<AllowedOrigins[]> {
  return db.select().from(allowedOrigins).where(eq(allowedOrigins.organizationId, organizationId));
}

/** Replaces an environment's list (an empty list included); the last write wins. */
export async function saveAllowedOrigins(
  db: DatabaseExecutor,
  values: { organizationId: string; environment: ApiKeyEnvironment; origins: string[]; now: Date },
): Promise<void> {
  const { organizationId, environment, origins, now } = values;
  await db
    .insert(allowedOrigins)
    .values({ organizationId, environment, origins, updatedAt: now })
    .onConflictDoUpdate({
      target: [allowedOrigins.organizationId, allowedOrigins.environment],
      set: { origins, updatedAt: now },
    });
}
