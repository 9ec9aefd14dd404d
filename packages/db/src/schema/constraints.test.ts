import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '../client.js';
import { createTestDatabase } from '../testing.js';
import { allowedOrigins, apiKeys, avatarUploads, memberships, notifications, organizations, users } from './index.js';

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work;
  } catch (error) {
    const cause = (error as { cause?: unknown }).cause ?? error;
    return cause as { code?: string; message: string };
  }
  throw new Error('Expected the statement to fail');
}

async function expectCheckViolation(work: Promise<unknown>, constraint: string): Promise<void> {
  const error = await databaseError(work);
  expect(error.code).toBe('23514');
  expect(error.message).toContain(constraint);
}

describe('schema constraints', () => {
  let handle: DatabaseHandle;
  const organizationId = '0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01';

  beforeAll(async () => {
    handle = await createTestDatabase();
    await handle.db.insert(users).values({ id: 'user_a', email: 'a@example.com' });
    await handle.db.insert(organizations).values({ id: organizationId, name: 'Acme' });
  });
  afterAll(async () => {
    await handle.close();
  });

  it('defaults kycStatus to unverified and rejects any other status', async () => {
    const [user] = await handle.db.select().from(users);
    expect(user?.kycStatus).toBe('unverified');
    await expectCheckViolation(
      handle.db.execute(sql`insert into users (id, email, kyc_status) values ('user_b', 'b@example.com', 'approved')`),
      'users_kyc_status_check',
    );
  });

  it('rejects a notification type outside info, warning, success, error', async () => {
    await expectCheckViolation(
      handle.db.execute(
        sql`insert into notifications (user_id, title, message, type) values ('user_a', 'T', 'M', 'urgent')`,
      ),
      'notifications_type_check',
    );
    await handle.db.insert(notifications).values({ userId: 'user_a', title: 'T', message: 'M', type: 'warning' });
  });

  it('rejects an API key environment other than live or test', async () => {
    await expectCheckViolation(
      handle.db.execute(
        sql`insert into api_keys (organization_id, environment, secret_hash, last_four)
            values (${organizationId}, 'staging', 'hash-1', 'abcd')`,
      ),
      'api_keys_environment_check',
    );
  });

  it('rejects a non-positive rate limit but accepts null as the service default', async () => {
    await expectCheckViolation(
      handle.db
        .insert(apiKeys)
        .values({ organizationId, environment: 'test', secretHash: 'hash-2', lastFour: 'abcd', rateLimitPerMinute: 0 }),
      'api_keys_rate_limit_per_minute_check',
    );
    const [key] = await handle.db
      .insert(apiKeys)
      .values({ organizationId, environment: 'test', secretHash: 'hash-3', lastFour: 'abcd' })
      .returning();
    expect(key?.rateLimitPerMinute).toBeNull();
    expect(key?.name).toBe('Default');
  });

  it("rejects a non-positive maximum for an organization's key rate limits but accepts null as main-api's default", async () => {
    await expectCheckViolation(
      handle.db.insert(organizations).values({ name: 'Zero', maxKeyRateLimitPerMinute: 0 }),
      'organizations_max_key_rate_limit_per_minute_check',
    );
    const [organization] = await handle.db.insert(organizations).values({ name: 'Unset' }).returning();
    expect(organization?.maxKeyRateLimitPerMinute).toBeNull();
  });

  it('keeps at most ten allowed origins per organization and environment, in live or test only', async () => {
    const origins = Array.from({ length: 10 }, (_, index) => `https://shop-${index}.example`);
    await handle.db.insert(allowedOrigins).values({ organizationId, environment: 'live', origins });
    const [row] = await handle.db.select().from(allowedOrigins);
    expect(row?.origins).toEqual(origins);
    await expectCheckViolation(
      handle.db.insert(allowedOrigins).values({
        organizationId,
        environment: 'test',
        origins: [...origins, 'https://one-more.example'],
      }),
      'allowed_origins_count_check',
    );
    await expectCheckViolation(
      handle.db.execute(
        sql`insert into allowed_origins (organization_id, environment) values (${organizationId}, 'staging')`,
      ),
      'allowed_origins_environment_check',
    );
  });

  it('rejects a membership role outside owner, admin, member', async () => {
    await expectCheckViolation(
      handle.db.execute(
        sql`insert into memberships (organization_id, user_id, role) values (${organizationId}, 'user_a', 'boss')`,
      ),
      'memberships_role_check',
    );
  });

  it('rejects an avatar of zero bytes', async () => {
    await expectCheckViolation(
      handle.db.insert(avatarUploads).values({
        userId: 'user_a',
        storageKey: 'avatars/a.png',
        url: 'https://cdn.example.com/avatars/a.png',
        contentType: 'image/png',
        sizeBytes: 0,
      }),
      'avatar_uploads_size_bytes_check',
    );
  });

  it('rejects a duplicate email', async () => {
    const error = await databaseError(handle.db.insert(users).values({ id: 'user_c', email: 'a@example.com' }));
    expect(error.code).toBe('23505');
  });

  it("removes a user's memberships and notifications with the user", async () => {
    await handle.db.insert(users).values({ id: 'user_gone', email: 'gone@example.com' });
    await handle.db.insert(memberships).values({ organizationId, userId: 'user_gone' });
    await handle.db.insert(notifications).values({ userId: 'user_gone', title: 'T', message: 'M', type: 'info' });

    const rowsOfUser = () =>
      queryRows(
        handle.db,
        sql`select 1 from memberships where user_id = 'user_gone'
            union all select 1 from notifications where user_id = 'user_gone'`,
      );
    expect(await rowsOfUser()).toHaveLength(2);

    await handle.db.execute(sql`delete from users where id = 'user_gone'`);

    expect(await rowsOfUser()).toHaveLength(0);
  });
});
