import type { DatabaseHandle } from '@platform/db';
import { apiKeys, organizations, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKeySecret } from './secret.js';
import {
  createApiKey,
  findActiveApiKey,
  revokeApiKey,
  revokeOrganizationApiKeys,
  touchApiKey,
  touchApiKeys,
} from './service.js';

const ORG_A = '3f0c2a4e-8b1d-4e6f-9a2b-1c3d5e7f9a01';
const ORG_B = '3f0c2a4e-8b1d-4e6f-9a2b-1c3d5e7f9a02';

describe('API keys in the database', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.insert(users).values({ id: 'user_owner', email: 'owner@example.com' });
    await handle.db.insert(organizations).values([
      { id: ORG_A, name: 'Org A' },
      { id: ORG_B, name: 'Org B' },
    ]);
  });
  afterAll(async () => {
    await handle.close();
  });

  it('creates a key, stores only its hash and last four, and finds it by the secret', async () => {
    const created = await createApiKey(handle.db, {
      organizationId: ORG_A,
      environment: 'live',
      name: 'Production',
      createdByUserId: 'user_owner',
      rateLimitPerMinute: 600,
    });
    expect(created).toMatchObject({ organizationId: ORG_A, environment: 'live', name: 'Production' });
    expect(created.secret.startsWith('sk_live_')).toBe(true);
    expect(created.lastFour).toBe(created.secret.slice(-4));
    expect(created.createdAt).toBeInstanceOf(Date);

    const [stored] = await handle.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(stored?.secretHash).toBe(hashApiKeySecret(created.secret));
    expect(JSON.stringify(stored)).not.toContain(created.secret);

    expect(await findActiveApiKey(handle.db, created.secret)).toEqual({
      id: created.id,
      organizationId: ORG_A,
      environment: 'live',
      rateLimitPerMinute: 600,
      permissions: [],
    });
  });

  it('names a key "Default" and leaves the rate limit to the service unless told otherwise', async () => {
    const created = await createApiKey(handle.db, { organizationId: ORG_A, environment: 'test' });
    expect(created.name).toBe('Default');
    expect(await findActiveApiKey(handle.db, created.secret)).toMatchObject({
      environment: 'test',
      rateLimitPerMinute: null,
    });
  });

  it('finds nothing for an unknown or malformed secret', async () => {
    expect(await findActiveApiKey(handle.db, generateApiKey('live').secret)).toBeNull();
    expect(await findActiveApiKey(handle.db, 'not-a-key')).toBeNull();
    expect(await findActiveApiKey(handle.db, '')).toBeNull();
  });

  it('finds nothing when the prefix names another environment than the stored key', async () => {
    const secret = generateApiKey('test').secret;
    const [row] = await handle.db
      .insert(apiKeys)
      .values({ organizationId: ORG_A, environment: 'live', secretHash: hashApiKeySecret(secret), lastFour: 'abcd' })
      .returning({ id: apiKeys.id });
    expect(row).toBeDefined();
    expect(await findActiveApiKey(handle.db, secret)).toBeNull();

    await handle.db
      .update(apiKeys)
      .set({ environment: 'test' })
      .where(eq(apiKeys.id, row?.id ?? ''));
    expect(await findActiveApiKey(handle.db, secret)).toMatchObject({ id: row?.id, environment: 'test' });
  });

  it('revokes a key once; a revoked key is no longer found', async () => {
    const created = await createApiKey(handle.db, { organizationId: ORG_A, environment: 'test' });
    expect(await revokeApiKey(handle.db, { id: created.id })).toBe(true);
    expect(await findActiveApiKey(handle.db, created.secret)).toBeNull();
    expect(await revokeApiKey(handle.db, { id: created.id })).toBe(false);

    const [stored] = await handle.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(stored?.revokedAt).toBeInstanceOf(Date);
  });

  it("revokes every active key of one organization, and none of another's", async () => {
    const organizationId = '3f0c2a4e-8b1d-4e6f-9a2b-1c3d5e7f9a03';
    await handle.db.insert(organizations).values({ id: organizationId, name: 'Org C' });
    const keys = await Promise.all(
      (['live', 'test', 'live'] as const).map((environment) =>
        createApiKey(handle.db, { organizationId, environment }),
      ),
    );
    const other = await createApiKey(handle.db, { organizationId: ORG_B, environment: 'live' });
    expect(await revokeApiKey(handle.db, { id: keys[2]?.id ?? '' })).toBe(true);

    const now = new Date('2024-06-15T12:00:00.000Z');
    expect(await revokeOrganizationApiKeys(handle.db, organizationId, now)).toBe(2);
    for (const key of keys) expect(await findActiveApiKey(handle.db, key.secret)).toBeNull();
    expect(await findActiveApiKey(handle.db, other.secret)).not.toBeNull();
    const [first] = await handle.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.id, keys[0]?.id ?? ''));
    expect(first?.revokedAt?.toISOString()).toBe(now.toISOString());
    expect(await revokeOrganizationApiKeys(handle.db, organizationId, now)).toBe(0);
  });

  it("does not revoke another organization's key, an unknown id or a malformed id", async () => {
    const created = await createApiKey(handle.db, { organizationId: ORG_A, environment: 'live' });
    expect(await revokeApiKey(handle.db, { id: created.id, organizationId: ORG_B })).toBe(false);
    expect(await revokeApiKey(handle.db, { id: '3f0c2a4e-8b1d-4e6f-9a2b-1c3d5e7f9aff' })).toBe(false);
    expect(await revokeApiKey(handle.db, { id: 'key_123' })).toBe(false);
    expect(await findActiveApiKey(handle.db, created.secret)).not.toBeNull();

    expect(await revokeApiKey(handle.db, { id: created.id, organizationId: ORG_A })).toBe(true);
    expect(await findActiveApiKey(handle.db, created.secret)).toBeNull();
  });

  it('records use at most once per interval', async () => {
    const created = await createApiKey(handle.db, { organizationId: ORG_B, environment: 'live' });
    const lastUsedAt = async () =>
      (await handle.db.select().from(apiKeys).where(eq(apiKeys.id, created.id)))[0]?.lastUsedAt;
    const start = new Date('2026-01-05T10:00:00.000Z');

    expect(await lastUsedAt()).toBeNull();
    expect(await touchApiKey(handle.db, created.id, { now: start })).toBe(true);
    expect(await lastUsedAt()).toEqual(start);

    const soon = new Date(start.getTime() + 30_000);
    expect(await touchApiKey(handle.db, created.id, { now: soon })).toBe(false);
    expect(await lastUsedAt()).toEqual(start);

    const later = new Date(start.getTime() + 61_000);
    expect(await touchApiKey(handle.db, created.id, { now: later })).toBe(true);
    expect(await lastUsedAt()).toEqual(later);
  });

  it('records the use of many keys in one statement, each at most once per interval', async () => {
    const [first, second, third] = await Promise.all(
      [1, 2, 3].map(() => createApiKey(handle.db, { organizationId: ORG_B, environment: 'test' })),
    );
    const usedAt = async (id: string) =>
      (await handle.db.select().from(apiKeys).where(eq(apiKeys.id, id)))[0]?.lastUsedAt;
    const start = new Date('2026-02-01T08:00:00.000Z');
    expect(await touchApiKey(handle.db, first!.id, { now: start })).toBe(true);

    const soon = new Date(start.getTime() + 59_000);
    const ids = [first!.id, second!.id, 'not-a-uuid', '3f0c2a4e-8b1d-4e6f-9a2b-1c3d5e7f9aff'];
    expect(await touchApiKeys(handle.db, ids, { now: soon })).toEqual([second!.id]);
    expect(await usedAt(first!.id)).toEqual(start);
    expect(await usedAt(second!.id)).toEqual(soon);
    expect(await usedAt(third!.id)).toBeNull();

    const later = new Date(start.getTime() + 60_001);
    expect(await touchApiKeys(handle.db, [first!.id, second!.id], { now: later })).toEqual([first!.id]);
    expect(await touchApiKeys(handle.db, [], { now: later })).toEqual([]);
  });
});
