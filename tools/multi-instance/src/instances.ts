import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BackendApp, buildApp as buildBackendApi, loadBackendApiConfig } from '@platform/backend-api';
import { createDatabase, type DatabaseHandle, queryRows } from '@platform/db';
import { buildApp as buildMainApi, createAvatarStorage, loadMainApiConfig, type MainApiApp } from '@platform/main-api';
import { createRedisClient } from '@platform/rate-limit';
import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';

export const TOKEN_ISSUER = 'http://localhost/multi-instance';
export const TOKEN_AUDIENCE = 'platform-multi-instance';

/** Two instances of each service, each with its own database pool and Redis connection, as two processes would have. */
export interface Fleet {
  main: [MainApiApp, MainApiApp];
  backend: [BackendApp, BackendApp];
  jwtSecret: string;
  close(): Promise<void>;
}

export interface FleetOptions {
  /** The PostgreSQL database every instance connects to. */
  databaseUrl: string;
  redisUrl: string;
  mainEnv?: NodeJS.ProcessEnv;
  backendEnv?: NodeJS.ProcessEnv;
  /** Each instance's pool; small, because CI runs every suite on one PostgreSQL (100 connections). Default 3. */
  maxConnections?: number;
}

/** The connection URL of the database `handle` is connected to, built from `serverUrl` (its server). */
export async function urlOfDatabase(handle: DatabaseHandle, serverUrl: string): Promise<string> {
  const [row] = await queryRows<{ name: string }>(handle.db, sql`select current_database() as name`);
  if (row === undefined) throw new Error('current_database() answered nothing');
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(row.name)}`;
  return url.toString();
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const jwtSecret = randomBytes(32).toString('base64url');
  const avatarDir = mkdtempSync(path.join(tmpdir(), 'multi-instance-avatars-'));
  const resources: Array<{ database: DatabaseHandle; redis: Redis }> = [];

  const connect = async () => {
    const database = await createDatabase({ url: options.databaseUrl, maxConnections: options.maxConnections ?? 3 });
    const redis = createRedisClient(options.redisUrl);
    await redis.connect();
    resources.push({ database, redis });
    return { database, redis };
  };

  const mainInstance = async () => {
    const { database, redis } = await connect();
    const config = loadMainApiConfig({
      LOG_LEVEL: 'silent',
      AUTH_JWT_SECRET: jwtSecret,
      AUTH_ISSUER: TOKEN_ISSUER,
      AUTH_AUDIENCE: TOKEN_AUDIENCE,
      AVATAR_LOCAL_DIR: avatarDir,
      PAYMENT_RECONCILE_INTERVAL_MS: '0',
      ...options.mainEnv,
    });
    const app = buildMainApi(
      { database, redis, storage: createAvatarStorage(config.avatars.storage, config.publicUrl) },
      config,
    );
    await app.ready();
    return app;
  };
  const backendInstance = async () => {
    const { database, redis } = await connect();
    const app = buildBackendApi(
      { database, redis },
      loadBackendApiConfig({
        LOG_LEVEL: 'silent',
        IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
        VERIFICATION_EXPIRY_INTERVAL_MS: '0',
        VERIFICATION_RETENTION_INTERVAL_MS: '0',
        ...options.backendEnv,
      }),
    );
    await app.ready();
    return app;
  };

  const apps: Array<MainApiApp | BackendApp> = [];
  const close = async () => {
    await Promise.all(apps.map((app) => app.close()));
    for (const { database, redis } of resources) {
      redis.disconnect();
      await database.close();
    }
    rmSync(avatarDir, { recursive: true, force: true });
  };
  try {
    const main: [MainApiApp, MainApiApp] = [await mainInstance(), await mainInstance()];
    apps.push(...main);
    const backend: [BackendApp, BackendApp] = [await backendInstance(), await backendInstance()];
    apps.push(...backend);
    return { main, backend, jwtSecret, close };
  } catch (error) {
    await close();
    throw error;
  }
}
