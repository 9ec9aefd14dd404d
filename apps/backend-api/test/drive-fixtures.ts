import { createApiKey, type Database, type DatabaseHandle, driveFolders, type MailPlan, mailSubscriptions, type MailSubscriptionStatus, organizations } from '@platform/db';
import { eq } from 'drizzle-orm';
import { buildApp, type BackendApp } from '../src/app.js';
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
  const [organization] = await db.insert(organizations).values({ name }).returning();
  const id = organization!.id;
  const live = await createApiKey(db, { organizationId: id, environment: 'live' });
  const secondLive = await createApiKey(db, { organizationId: id, environment: 'live', name: 'Second' });
  const test = await createApiKey(db, { organizationId: id, environment: 'test' });
  return { id, liveKey: live.secret, liveKeyId: live.id, secondLiveKey: secondLive.secret, testKey: test.secret };
}

/** A movable clock for the app under test. */
export function testClock(start = new Date('2026-03-02T09:00:00.000Z')) {
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

/**
 * backend-api on `database`, ready, with silent logs, no purge, expiry or webhook delivery timer and a rate
 * limit no suite reaches (suites share one key across many requests) unless `env` says otherwise.
 */
export async function buildTestApp(
  database: DatabaseHandle,
  { now, env = {} }: { now?: () => Date; env?: NodeJS.ProcessEnv } = {},
): Promise<BackendApp> {
  const app = buildApp(
    { database, ...(now === undefined ? {} : { now }) },
    loadBackendApiConfig({
      LOG_LEVEL: 'silent',
      IDEMPOTENCY_PURGE_INTERVAL_MS: '0',
      VERIFICATION_EXPIRY_INTERVAL_MS: '0',
      WEBHOOK_DELIVERY_ENABLED: 'false',
      RATE_LIMIT_PER_MINUTE: '100000',
      ...env,
    }),
  );
  await app.ready();
  return app;
}

/** Gives the organization a mail subscription (or changes its plan and status). */
export async function setMailPlan(
  db: Database,
  organizationId: string,
  plan: MailPlan,
  status: MailSubscriptionStatus = 'active',
): Promise<void> {
  const values = {
    organizationId,
    plan,
    seats: 5,
    billingCycle: 'monthly' as const,
    status,
    currentPeriodStart: new Date('2026-03-01T00:00:00.000Z'),
    currentPeriodEnd: new Date('2026-04-01T00:00:00.000Z'),
  };
  await db
    .insert(mailSubscriptions)
    .values(values)
    .onConflictDoUpdate({ target: mailSubscriptions.organizationId, set: { plan, status } });
}

/** Inserts `count` top-level folders straight into the database (to reach a quota quickly), all created at `createdAt`. */
export async function insertFolders(
  db: Database,
  organizationId: string,
  environment: 'live' | 'test',
  count: number,
  createdAt = new Date('2026-03-01T12:00:00.000Z'),
): Promise<void> {
  const batch = 1_000;
  for (let offset = 0; offset < count; offset += batch) {
    const size = Math.min(batch, count - offset);
    await db.insert(driveFolders).values(
      Array.from({ length: size }, (_, index) => ({ organizationId, environment, name: `Bulk ${offset + index}`, createdAt })),
    );
  }
}

export function countFolders(db: Database, organizationId?: string): Promise<number> {
  return db.$count(driveFolders, organizationId === undefined ? undefined : eq(driveFolders.organizationId, organizationId));
}
