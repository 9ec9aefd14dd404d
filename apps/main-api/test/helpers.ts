import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Database, DatabaseHandle, MembershipRole } from '@platform/db';
import { memberships, organizations, users } from '@platform/db/schema';
import { createTestDatabase, type StatementLog } from '@platform/db/testing';
import { buildApp, type MainApiDeps } from '../src/app.js';
import { signAccessToken } from '../src/auth/tokens.js';
import { loadMainApiConfig, type MainApiConfig } from '../src/config.js';
import { createLocalFolderStorage } from '../src/storage/local-folder.js';

export const TEST_SECRET = 'a-test-signing-secret-of-at-least-32-chars';
export const TEST_ISSUER = 'https://identity.test.example/';
export const TEST_AUDIENCE = 'main-api-test';
const TEST_PUBLIC_URL = 'http://main-api.test';
/**
 * PROVIDER_TIMEOUT_MS in tests: generous, so that a normal answer from a local fake provider is never taken
 * for silence on a loaded machine. Tests that need a request to time out run its limit out by hand
 * (test/manual-timeouts.ts) instead of waiting for it.
 */
export const TEST_PROVIDER_TIMEOUT_MS = 30_000;

/** Config as tests use it: HS256 test secret, silent logs, avatars in `avatarDir`. */
export function testConfig(env: NodeJS.ProcessEnv = {}): MainApiConfig {
  return loadMainApiConfig({
    AUTH_JWT_SECRET: TEST_SECRET,
    AUTH_ISSUER: TEST_ISSUER,
    AUTH_AUDIENCE: TEST_AUDIENCE,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: TEST_PUBLIC_URL,
    ...env,
  });
}

/** A valid token for `userId`, signed with the test secret, with an `email` claim when one is given. */
export function tokenFor(
  userId: string,
  options: { expiresIn?: number | string; now?: Date; email?: string } = {},
): Promise<string> {
  return signAccessToken({
    secret: TEST_SECRET,
    issuer: TEST_ISSUER,
    audience: TEST_AUDIENCE,
    subject: userId,
    ...options,
  });
}

export async function authHeader(userId: string): Promise<{ authorization: string }> {
  return { authorization: `Bearer ${await tokenFor(userId)}` };
}

export interface TestApp {
  app: ReturnType<typeof buildApp>;
  database: DatabaseHandle;
  db: Database;
  config: MainApiConfig;
  avatarDir: string;
  close(): Promise<void>;
}

/** main-api on a fresh test database, with local avatar storage in a temporary folder. */
export async function createTestApp(
  options: {
    env?: NodeJS.ProcessEnv;
    deps?: Partial<MainApiDeps>;
    /** Runs before ready(), e.g. to add a route. */
    setup?: (app: ReturnType<typeof buildApp>) => void;
    /** PostgreSQL only: records every statement the app sends (docs/decisions.md#statements-per-request). */
    statementLog?: StatementLog;
  } = {},
): Promise<TestApp> {
  const database = await createTestDatabase(
    options.statementLog === undefined ? {} : { statementLog: options.statementLog },
  );
  const avatarDir = await mkdtemp(path.join(tmpdir(), 'main-api-avatars-'));
  const config = testConfig({ AVATAR_LOCAL_DIR: avatarDir, ...options.env });
  const storage = createLocalFolderStorage({ directory: avatarDir, publicUrl: config.publicUrl });
  const app = buildApp({ database, storage, ...options.deps }, config);
  options.setup?.(app);
  await app.ready();
  return {
    app,
    database,
    db: database.db,
    config,
    avatarDir,
    async close() {
      await app.close();
      await database.close();
      await rm(avatarDir, { recursive: true, force: true });
    },
  };
}

/** Inserts a user row; fields not given are left empty (null) except the required email. */
export async function insertUser(
  db: Database,
  user: { id: string } & Partial<typeof users.$inferInsert>,
): Promise<void> {
  await db.insert(users).values({ email: `${user.id}@example.com`, ...user });
}

/**
 * Inserts an organization (random id unless given) with the given members; returns its id. A member without a
 * role is an owner, so a test about something else is not refused by the role policy; and it is activated unless
 * `activated: false`, so live keys and live top-ups are not refused either (docs/decisions.md#going-live).
 */
export async function insertOrganization(
  db: Database,
  organization: {
    id?: string;
    name?: string;
    members?: { userId: string; role?: MembershipRole }[];
    activated?: boolean;
  } = {},
): Promise<string> {
  const [row] = await db
    .insert(organizations)
    .values({
      name: organization.name ?? 'Test organization',
      ...(organization.id === undefined ? {} : { id: organization.id }),
      activatedAt: organization.activated === false ? null : new Date(),
    })
    .returning({ id: organizations.id });
  if (row === undefined) throw new Error('Inserting the organization returned no row');
  const members = organization.members ?? [];
  if (members.length > 0) {
    await db
      .insert(memberships)
      .values(members.map((member) => ({ organizationId: row.id, ...member, role: member.role ?? 'owner' })));
  }
  return row.id;
}
