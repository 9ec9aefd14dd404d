import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApiKey } from '@platform/api-keys';
import type { Database, DatabaseHandle } from '@platform/db';
import { organizations } from '@platform/db/schema';
import { type CreateTestDatabaseOptions, createTestDatabase } from '@platform/db/testing';
import type { DocumentVault } from '@platform/document-vault';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { type BackendApp, buildApp } from '../src/app.js';
import { loadBackendApiConfig } from '../src/config.js';

/** An organization with a live and a test key (and a second live key, for per-key scoping). */
export interface TestOrganization {
  id: string;
  liveKey: string;
  liveKeyId: string;
  secondLiveKey: string;
  testKey: string;
}

export async function createTestOrganization(db: Database, name: string): Promise<TestOrganization> {
  const [organization] = await db.insert(organizations).values({ name, activatedAt: new Date() }).returning();
  const id = organization!.id;
  const live = await createApiKey(db, { organizationId: id, environment: 'live' });
  const secondLive = await createApiKey(db, { organizationId: id, environment: 'live', name: 'Second' });
  const test = await createApiKey(db, { organizationId: id, environment: 'test' });
  return { id, liveKey: live.secret, liveKeyId: live.id, secondLiveKey: secondLive.secret, testKey: test.secret };
}

/** Deletes every organization (and what cascades from them), then creates one per name, in order. */
export async function replaceOrganizations<const Names extends readonly string[]>(
  db: Database,
  ...names: Names
): Promise<{ [Index in keyof Names]: TestOrganization }> {
  await db.delete(organizations);
  const created: TestOrganization[] = [];
  for (const name of names) created.push(await createTestOrganization(db, name));
  return created as { [Index in keyof Names]: TestOrganization };
}

export const TEST_START = new Date('2026-03-02T09:00:00.000Z');

/** A movable clock for the app under test. */
export function testClock(start = TEST_START) {
  let current = start;
  return {
    now: () => current,
    set: (date: Date) => {
      current = date;
    },
    advance: (ms: number) => {
      current = new Date(current.getTime() + ms);
    },
  };
}

export type TestClock = ReturnType<typeof testClock>;

/**
 * backend-api on `database`, ready, with silent logs (or `logger`), no purge, expiry, retention or webhook delivery timer and a rate
 * limit no suite reaches (suites share one key across many requests) unless `env` says otherwise.
 */
export async function buildTestApp(
  database: DatabaseHandle,
  {
    now,
    env = {},
    logger,
    setup,
    vault,
    smileIdTimeout,
  }: {
    now?: () => Date;
    env?: NodeJS.ProcessEnv;
    /** Replaces the silent logger, e.g. to read what was logged. */
    logger?: FastifyBaseLogger;
    /** Runs before ready(), e.g. to add a hook. */
    setup?: (app: BackendApp) => void;
    /** The document vault; by default one under a temporary folder with a key per process. */
    vault?: DocumentVault;
    /** Starts each call's time limit to Smile ID; the test ends unanswered calls by hand (fake-smile-id.ts). */
    smileIdTimeout?: (ms: number) => AbortSignal;
  } = {},
): Promise<BackendApp> {
  const app = buildApp(
    {
      database,
      ...(now === undefined ? {} : { now }),
      ...(logger === undefined ? {} : { logger }),
      ...(vault === undefined ? {} : { vault }),
      ...(smileIdTimeout === undefined ? {} : { smileIdTimeout }),
    },
    loadBackendApiConfig({
      LOG_LEVEL: 'silent',
      // Never the working folder's .data: documents a suite sends land outside the repository.
      DOCUMENT_LOCAL_DIR: path.join(tmpdir(), 'backend-api-test-documents'),
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      VERIFICATION_EXPIRY_INTERVAL_MS: '0',
      VERIFICATION_RETENTION_INTERVAL_MS: '0',
      WEBHOOK_DELIVERY_ENABLED: 'false',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    }),
  );
  setup?.(app);
  await app.ready();
  return app;
}

/** The database of the suite that called useTestDatabase; read it in hooks and tests. */
export interface TestDatabase {
  readonly handle: DatabaseHandle;
  readonly db: Database;
}

/** A fresh test database for the calling suite: created before its first test, closed after its last. */
export function useTestDatabase(options: CreateTestDatabaseOptions = {}): TestDatabase {
  let database: DatabaseHandle | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(options);
  });
  afterAll(async () => {
    await database?.close();
  });
  const opened = () => database ?? failOutsideTests('database');
  return {
    get handle() {
      return opened();
    },
    get db() {
      return opened().db;
    },
  };
}

/** The suite's database and app (on the suite's clock); read them in hooks and tests. */
export interface TestApp extends TestDatabase {
  readonly app: BackendApp;
  readonly clock: TestClock;
}

/**
 * A fresh test database and a backend-api on it (`buildTestApp`, on a movable clock starting at TEST_START)
 * for the calling suite: made before its first test, closed after its last (the app first).
 */
export function useTestApp({
  env,
  ...databaseOptions
}: CreateTestDatabaseOptions & { env?: NodeJS.ProcessEnv } = {}): TestApp {
  const clock = testClock();
  let database: DatabaseHandle | undefined;
  let app: BackendApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(databaseOptions);
    app = await buildTestApp(database, { now: clock.now, ...(env === undefined ? {} : { env }) });
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });
  const opened = () => database ?? failOutsideTests('database');
  return {
    clock,
    get handle() {
      return opened();
    },
    get db() {
      return opened().db;
    },
    get app() {
      return app ?? failOutsideTests('app');
    },
  };
}

function failOutsideTests(what: string): never {
  throw new Error(`The suite's ${what} exists only in its hooks and tests`);
}
