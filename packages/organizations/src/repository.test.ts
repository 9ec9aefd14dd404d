import { type DatabaseHandle, queryRows } from '@platform/db';
import { allowedOrigins, memberships, organizations, payments, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findAllowedOrigins,
  findOrganizationKeyRateLimitMax,
  membersOf,
  organizationExists,
  organizationNameOf,
  organizationRetiredAtOf,
  updateKeyRateLimitMaximum,
} from './repository.js';

const SHOP = '6b2f8d4c-3e5a-4b7c-9d0e-1f2a3b4c5d01';
const RETIRED = '6b2f8d4c-3e5a-4b7c-9d0e-1f2a3b4c5d02';
const UNKNOWN = '6b2f8d4c-3e5a-4b7c-9d0e-1f2a3b4c5d09';
const RETIRED_AT = new Date('2026-03-01T10:00:00.000Z');

describe('the statements other owners run on organizations', () => {
  let handle: DatabaseHandle;

  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.insert(users).values([
      { id: 'user_a', email: 'a@example.com' },
      { id: 'user_b', email: 'b@example.com' },
    ]);
    await handle.db.insert(organizations).values([
      { id: SHOP, name: 'Shop' },
      { id: RETIRED, name: 'Old shop', retiredAt: RETIRED_AT },
    ]);
    await handle.db.insert(memberships).values([
      { organizationId: SHOP, userId: 'user_a', role: 'owner' },
      { organizationId: SHOP, userId: 'user_b' },
      { organizationId: RETIRED, userId: 'user_b' },
    ]);
    await handle.db
      .insert(allowedOrigins)
      .values({ organizationId: SHOP, environment: 'live', origins: ['https://shop.example'] });
  });
  afterAll(async () => {
    await handle.close();
  });

  it('finds an organization, its key maximum and its allowed origins per environment', async () => {
    expect(await organizationExists(handle.db, SHOP)).toBe(true);
    expect(await organizationExists(handle.db, UNKNOWN)).toBe(false);
    expect(await findAllowedOrigins(handle.db, SHOP, 'live')).toEqual(['https://shop.example']);
    expect(await findAllowedOrigins(handle.db, SHOP, 'test')).toEqual([]);
    expect(await updateKeyRateLimitMaximum(handle.db, SHOP, 900)).toEqual({ name: 'Shop' });
    expect(await findOrganizationKeyRateLimitMax(handle.db, SHOP)).toBe(900);
    expect(await updateKeyRateLimitMaximum(handle.db, UNKNOWN, 900)).toBeUndefined();
  });

  it('gives the name and retirement of the organization a column refers to, inside another statement', async () => {
    const rows = await handle.db
      .select({
        name: organizationNameOf(memberships.organizationId),
        retiredAt: organizationRetiredAtOf(memberships.organizationId),
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.userId, 'user_b'))
      .orderBy(memberships.organizationId);
    expect(rows).toEqual([
      { name: 'Shop', retiredAt: null },
      { name: 'Old shop', retiredAt: RETIRED_AT },
    ]);
    // The payments table is where billing embeds it; no payment, no row.
    expect(await handle.db.select({ name: organizationNameOf(payments.organizationId) }).from(payments)).toEqual([]);
  });

  it("selects the organization's members for another statement to embed", async () => {
    const rows = await queryRows(handle.db, sql`select member.user_id from (${membersOf(SHOP)}) as member order by 1`);
    expect(rows).toEqual([{ user_id: 'user_a' }, { user_id: 'user_b' }]);
    await handle.db.delete(memberships).where(eq(memberships.userId, 'user_a'));
    expect(await queryRows(handle.db, sql`select count(*)::int as n from (${membersOf(SHOP)}) as member`)).toEqual([
      { n: 1 },
    ]);
  });
});
