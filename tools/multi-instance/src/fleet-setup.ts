import { randomUUID } from 'node:crypto';
import { createApiKey } from '@platform/api-keys';
import type { Database, DatabaseHandle } from '@platform/db';
import { organizations, users } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { topUpWallet } from '@platform/ledger';
import { signAccessToken } from '@platform/main-api';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { missing, postgresServer, redisServer } from '#test-prerequisites';
import { type Fleet, startFleet, TOKEN_AUDIENCE, TOKEN_ISSUER, urlOfDatabase } from './instances.js';

// Two instances of each service, built as server.ts builds them, each with its own database pool and Redis
// connection, on one PostgreSQL database and one Redis: what several replicas behind a load balancer share.

export const MAIN_RATE_LIMIT = 6;
export const KEY_RATE_LIMIT = 8;

/** Why a fleet file skips: the fleet needs real PostgreSQL and Redis (DATABASE_URL and REDIS_URL). */
export const fleetServersMissing = missing(postgresServer, redisServer);

/** What `inject` answers (its no-argument overload is a chain that resolves to the same). */
type InjectResponse = Awaited<ReturnType<Fleet['backend'][0]['inject']>>;

export interface FleetSetup {
  readonly db: Database;
  readonly fleet: Fleet;
  /** A Redis key the test wrote (a rate-limit budget), deleted after the file. */
  trackRedisKey(key: string): void;
  /** A fresh organization with a funded live wallet and a live key of its own (own rate-limit budget). */
  organizationWithKey(rateLimitPerMinute?: number): Promise<{ organizationId: string; secret: string }>;
  backendPost(
    instance: 0 | 1,
    secret: string,
    url: string,
    body: object,
    idempotencyKey: string,
  ): Promise<InjectResponse>;
  /** A new user (with a main-api budget of MAIN_RATE_LIMIT requests) and an access token for it. */
  signedInUser(): Promise<{ userId: string; token: string }>;
}

/** Starts a fleet on a fresh database before the file's tests and closes it after them. */
export function useFleet(): FleetSetup {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  let database: DatabaseHandle | undefined;
  let fleet: Fleet | undefined;
  const redisKeys: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    fleet = await startFleet({
      databaseUrl: await urlOfDatabase(database, databaseUrl!),
      redisUrl: redisUrl!,
      mainEnv: { RATE_LIMIT_PER_MINUTE: String(MAIN_RATE_LIMIT), RENEWAL_INTERVAL_MS: '50' },
      backendEnv: {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        WEBHOOK_DELIVERY_INTERVAL_MS: '20',
        WEBHOOK_DELIVERY_BATCH_SIZE: '4',
      },
    });
  });
  afterAll(async () => {
    await fleet?.close();
    if (redisKeys.length > 0) await deleteRedisKeys(redisUrl!, redisKeys);
    await database?.close();
  });

  const setup: FleetSetup = {
    get db() {
      return database!.db;
    },
    get fleet() {
      return fleet!;
    },
    trackRedisKey: (key) => redisKeys.push(key),
    async organizationWithKey(rateLimitPerMinute = 100_000) {
      const db = setup.db;
      const [organization] = await db
        .insert(organizations)
        .values({ name: `Fleet ${randomUUID().slice(0, 8)}`, activatedAt: new Date() })
        .returning();
      const organizationId = organization!.id;
      await db.transaction((tx) =>
        topUpWallet(
          tx,
          { organizationId, environment: 'live' },
          { amount: 100_000, reference: `fleet:${organizationId}` },
        ),
      );
      const key = await createApiKey(db, { organizationId, environment: 'live', rateLimitPerMinute });
      redisKeys.push(`backend-api:rate-limit:apikey:${key.id}`);
      return { organizationId, secret: key.secret };
    },
    backendPost: (instance, secret, url, body, idempotencyKey) =>
      postToBackend(setup.fleet, instance, secret, url, body, idempotencyKey),
    async signedInUser() {
      const userId = `user_fleet_${randomUUID().slice(0, 8)}`;
      redisKeys.push(`main-api:rate-limit:user:${userId}`);
      await setup.db.insert(users).values({ id: userId, email: `${userId}@example.com` });
      const token = await signAccessToken({
        secret: setup.fleet.jwtSecret,
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        subject: userId,
      });
      return { userId, token };
    },
  };
  return setup;
}

function postToBackend(
  fleet: Fleet,
  instance: 0 | 1,
  secret: string,
  url: string,
  body: object,
  idempotencyKey: string,
): Promise<InjectResponse> {
  return fleet.backend[instance].inject({
    method: 'POST',
    url,
    headers: { 'x-service-api-key': secret, 'x-idempotency-key': idempotencyKey },
    payload: body,
  });
}

async function deleteRedisKeys(url: string, keys: string[]): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}
