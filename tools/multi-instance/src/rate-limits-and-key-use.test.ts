import { createApiKey } from '@platform/api-keys';
import type { Database } from '@platform/db';
import { memberships, organizations } from '@platform/db/schema';
import { beforeAll, describe, expect, it } from 'vitest';
import { fleetServersMissing, KEY_RATE_LIMIT, MAIN_RATE_LIMIT, useFleet } from './fleet-setup.js';
import type { Fleet } from './instances.js';

describe.skipIf(fleetServersMissing)(
  'rate limits and key use shared by two instances of each service (needs real PostgreSQL and Redis: set DATABASE_URL and REDIS_URL)',
  () => {
    const setup = useFleet();
    const { organizationWithKey, signedInUser, trackRedisKey } = setup;
    let db: Database;
    let fleet: Fleet;
    beforeAll(() => ({ db, fleet } = setup));

    it('shares a rate limit: a key’s budget spent across both backend instances ends on either', async () => {
      const { secret } = await organizationWithKey(KEY_RATE_LIMIT);
      const wallet = (instance: 0 | 1) =>
        fleet.backend[instance].inject({ method: 'GET', url: '/v1/wallet', headers: { 'x-service-api-key': secret } });

      const spent: Array<Awaited<ReturnType<typeof wallet>>> = [];
      for (let index = 0; index < KEY_RATE_LIMIT; index += 1) spent.push(await wallet((index % 2) as 0 | 1));
      expect(spent.map((response) => response.statusCode)).toEqual(Array(KEY_RATE_LIMIT).fill(200));
      // Each instance reports what is left of the one budget both spend.
      expect(spent.map((response) => Number(response.headers['x-ratelimit-remaining']))).toEqual(
        Array.from({ length: KEY_RATE_LIMIT }, (_, index) => KEY_RATE_LIMIT - 1 - index),
      );
      for (const instance of [0, 1] as const) {
        const refused = await wallet(instance);
        expect(refused.statusCode).toBe(429);
        expect(refused.json()).toMatchObject({ code: 'rate_limited' });
      }
    });

    it('shares a rate limit: a user’s budget spent across both main instances ends on either', async () => {
      const { token } = await signedInUser();
      const me = (instance: 0 | 1) =>
        fleet.main[instance].inject({
          method: 'GET',
          url: '/v1/accounts/me',
          headers: { authorization: `Bearer ${token}` },
        });

      const statuses: number[] = [];
      for (let index = 0; index < MAIN_RATE_LIMIT; index += 1)
        statuses.push((await me((index % 2) as 0 | 1)).statusCode);
      expect(statuses).toEqual(Array(MAIN_RATE_LIMIT).fill(200));
      expect((await me(1)).statusCode).toBe(429);
      expect((await me(0)).statusCode).toBe(429);
    });

    it("records a key's last use once a minute across both backend instances, and main-api lists it", async () => {
      const { userId, token } = await signedInUser();
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Keys ${userId}`, activatedAt: new Date() })
        .returning();
      const organizationId = organization!.id;
      await db.insert(memberships).values({ organizationId, userId, role: 'member' });
      const key = await createApiKey(db, { organizationId, environment: 'live' });
      trackRedisKey(`backend-api:rate-limit:apikey:${key.id}`);
      const listed = async (instance: 0 | 1): Promise<string | null> => {
        const response = await fleet.main[instance].inject({
          method: 'GET',
          url: '/v1/api-keys',
          headers: { authorization: `Bearer ${token}`, 'x-organization-id': organizationId },
        });
        expect(response.statusCode).toBe(200);
        return (response.json() as { data: { apiKeys: Array<{ lastUsedAt: string | null }> } }).data.apiKeys[0]!
          .lastUsedAt;
      };
      const use = async (instance: 0 | 1) => {
        const response = await fleet.backend[instance].inject({
          method: 'GET',
          url: '/v1/wallet',
          headers: { 'x-service-api-key': key.secret },
        });
        expect(response.statusCode).toBe(200);
        await fleet.backend[instance].apiKeyUsage.flush();
      };

      expect(await listed(0)).toBeNull();
      const before = Date.now();
      await use(0);
      const first = await listed(1);
      expect(Date.parse(first!)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(first!)).toBeLessThanOrEqual(Date.now());
      // The other instance has not recorded this key yet; its write, within the minute, changes nothing.
      await use(1);
      expect(await listed(0)).toBe(first);
    });
  },
);
