import { generateApiKey } from '@platform/api-keys';
import { apiKeys, organizations, users } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from './helpers.js';

// One app for an api-keys test file, its clock stopped at NOW, and two organizations laid anew before each test:
// A, where Alice is a plain member (any member may manage the keys), and B, owned by Bob.

export const ALICE = 'user_api_keys_alice';
export const BOB = 'user_api_keys_bob';
export const NOW = new Date('2024-06-15T12:00:00.000Z');
export const BASE = Date.parse('2024-06-01T00:00:00.000Z');
export const SECRET = { live: /^sk_live_[A-Za-z0-9_-]{43}$/, test: /^sk_test_[A-Za-z0-9_-]{43}$/ };
export const UNKNOWN_ID = '3f9a1c1e-7a4b-4e8e-9d55-0d0f6f1d2c3b';

type SeedKey = { organizationId: string; minute: number; environment?: 'live' | 'test'; revokedMinute?: number };
type ApiKeyRow = typeof apiKeys.$inferSelect;

export interface ApiKeysTestApp {
  readonly t: TestApp;
  readonly orgA: string;
  readonly orgB: string;
  headers(userId: string, organizationId: string): Promise<Record<string, string>>;
  create(payload: unknown, userId?: string, organizationId?: string): Promise<LightMyRequestResponse>;
  list(query?: string, userId?: string, organizationId?: string): Promise<LightMyRequestResponse>;
  revoke(id: string, userId?: string, organizationId?: string): Promise<LightMyRequestResponse>;
  /** Stores keys with chosen creation times (minutes after BASE); returns them with their secrets. */
  seedKeys(keys: SeedKey[]): Promise<Array<ApiKeyRow & { secret: string }>>;
  keyRow(id: string): Promise<ApiKeyRow | undefined>;
}

export function useApiKeysApp(): ApiKeysTestApp {
  let t: TestApp | undefined;
  let orgA = '';
  let orgB = '';

  beforeAll(async () => {
    t = await createTestApp({ deps: { now: () => NOW } });
  });
  afterAll(async () => {
    await t?.close();
  });

  beforeEach(async () => {
    const { db } = setup.t;
    await db.delete(organizations);
    await db.delete(users);
    await insertUser(db, { id: ALICE });
    await insertUser(db, { id: BOB });
    orgA = await insertOrganization(db, { name: 'A', members: [{ userId: ALICE, role: 'developer' }] });
    orgB = await insertOrganization(db, { name: 'B', members: [{ userId: BOB, role: 'owner' }] });
  });

  const setup: ApiKeysTestApp = {
    get t() {
      if (t === undefined) throw new Error('the api-keys app is built in beforeAll');
      return t;
    },
    get orgA() {
      return orgA;
    },
    get orgB() {
      return orgB;
    },
    async headers(userId, organizationId) {
      return { ...(await authHeader(userId)), 'x-organization-id': organizationId };
    },
    async create(payload, userId = ALICE, organizationId = orgA) {
      return setup.t.app.inject({
        method: 'POST',
        url: '/v1/api-keys',
        headers: await setup.headers(userId, organizationId),
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    },
    async list(query = '', userId = ALICE, organizationId = orgA) {
      return setup.t.app.inject({
        method: 'GET',
        url: `/v1/api-keys${query}`,
        headers: await setup.headers(userId, organizationId),
      });
    },
    async revoke(id, userId = ALICE, organizationId = orgA) {
      return setup.t.app.inject({
        method: 'DELETE',
        url: `/v1/api-keys/${id}`,
        headers: await setup.headers(userId, organizationId),
      });
    },
    async seedKeys(keys) {
      return Promise.all(
        keys.map(async (key) => {
          const environment = key.environment ?? 'live';
          const generated = generateApiKey(environment);
          const [row] = await setup.t.db
            .insert(apiKeys)
            .values({
              organizationId: key.organizationId,
              environment,
              name: `Key ${key.minute}`,
              secretHash: generated.secretHash,
              lastFour: generated.lastFour,
              createdAt: new Date(BASE + key.minute * 60_000),
              revokedAt: key.revokedMinute === undefined ? null : new Date(BASE + key.revokedMinute * 60_000),
            })
            .returning();
          return { ...row!, secret: generated.secret };
        }),
      );
    },
    async keyRow(id) {
      const [row] = await setup.t.db.select().from(apiKeys).where(eq(apiKeys.id, id));
      return row;
    },
  };
  return setup;
}
