import { findActiveApiKey } from '@platform/api-keys';
import { apiKeys } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BASE, NOW, UNKNOWN_ID, useApiKeysApp } from '../../../test/api-key-fixtures.js';

const setup = useApiKeysApp();
const { create, list, revoke, seedKeys, keyRow } = setup;

describe('GET /v1/api-keys', () => {
  it("lists the organization's active keys newest first, prefix and last four only", async () => {
    const [older, newer] = await seedKeys([
      { organizationId: setup.orgA, minute: 1, environment: 'test' },
      { organizationId: setup.orgA, minute: 2 },
    ]);
    await setup.t.db
      .update(apiKeys)
      .set({ lastUsedAt: new Date(BASE + 90 * 60_000), rateLimitPerMinute: 30 })
      .where(eq(apiKeys.id, older!.id));
    const response = await list();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: {
        apiKeys: [
          {
            id: newer?.id,
            name: 'Key 2',
            environment: 'live',
            prefix: 'sk_live_',
            lastFour: newer?.secret.slice(-4),
            rateLimitPerMinute: null,
            permissions: [],
            createdAt: '2024-06-01T00:02:00.000Z',
            lastUsedAt: null,
            revokedAt: null,
          },
          {
            id: older?.id,
            name: 'Key 1',
            environment: 'test',
            prefix: 'sk_test_',
            lastFour: older?.secret.slice(-4),
            rateLimitPerMinute: 30,
            permissions: [],
            createdAt: '2024-06-01T00:01:00.000Z',
            lastUsedAt: '2024-06-01T01:30:00.000Z',
            revokedAt: null,
          },
        ],
      },
    });
    for (const key of [older!, newer!]) {
      expect(response.body).not.toContain(key.secret);
      expect(response.body).not.toContain(key.secretHash);
    }
  });

  it('lists revoked keys only with includeRevoked=true', async () => {
    const [active, revoked] = await seedKeys([
      { organizationId: setup.orgA, minute: 1 },
      { organizationId: setup.orgA, minute: 2, revokedMinute: 3 },
    ]);
    const ids = async (query: string) => (await list(query)).json().data.apiKeys.map((key: { id: string }) => key.id);
    expect(await ids('')).toEqual([active?.id]);
    expect(await ids('?includeRevoked=false')).toEqual([active?.id]);
    expect(await ids('?includeRevoked=true')).toEqual([revoked?.id, active?.id]);
    const all = (await list('?includeRevoked=true')).json().data.apiKeys;
    expect(all[0].revokedAt).toBe('2024-06-01T00:03:00.000Z');
  });

  it('answers 400 for an includeRevoked that is not a boolean', async () => {
    const response = await list('?includeRevoked=sometimes');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error' });
  });

  it('returns an empty list for an organization without keys', async () => {
    expect((await list()).json()).toEqual({ success: true, data: { apiKeys: [] } });
  });
});

describe('DELETE /v1/api-keys/:id', () => {
  it('revokes the key: it stops authenticating at once and leaves the active list', async () => {
    const { data } = (await create({ environment: 'live' })).json();
    expect(await findActiveApiKey(setup.t.db, data.secret)).not.toBeNull();

    const response = await revoke(data.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'API key revoked' });
    expect(await findActiveApiKey(setup.t.db, data.secret)).toBeNull();
    expect((await keyRow(data.id))?.revokedAt?.toISOString()).toBe(NOW.toISOString());
    expect((await list()).json().data.apiKeys).toEqual([]);
    expect((await list('?includeRevoked=true')).json().data.apiKeys[0]).toMatchObject({
      id: data.id,
      revokedAt: NOW.toISOString(),
    });
  });

  it('succeeds again on a revoked key and keeps its first revocation time', async () => {
    const [key] = await seedKeys([{ organizationId: setup.orgA, minute: 1, revokedMinute: 5 }]);
    const response = await revoke(key!.id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'API key revoked' });
    expect((await keyRow(key!.id))?.revokedAt?.toISOString()).toBe('2024-06-01T00:05:00.000Z');
  });

  it.each([
    ['an unknown id', UNKNOWN_ID],
    ['a malformed id', 'not-a-uuid'],
  ])('answers 404 for %s', async (_label, id) => {
    const response = await revoke(id);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, error: 'API key not found', code: 'not_found' });
  });
});
