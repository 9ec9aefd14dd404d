import type { MembershipRole } from '@platform/db';
import { auditEvents, memberships, organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, insertUser, type TestApp, tokenFor } from './helpers.js';

// The users of the organization route suites (src/modules/organizations/*.test.ts): OWNER creates the
// organizations; the others get the role a test gives them.
export const OWNER = 'user_orgs_owner';
export const CO_OWNER = 'user_orgs_co_owner';
export const ADMIN = 'user_orgs_admin';
export const DEVELOPER = 'user_orgs_developer';
export const MEMBER = 'user_orgs_member';
export const OUTSIDER = 'user_orgs_outsider';
export const NO_PROFILE = 'user_orgs_no_profile';
export const FIXED_NOW = new Date('2024-06-15T12:00:00.000Z');

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * main-api on a clock fixed at FIXED_NOW, with the users above, for the calling suite: made before its first test,
 * closed after its last, with `env` as its variables. `t` stands for the app and its database from the first test on.
 */
export function organizationsSuite(env: NodeJS.ProcessEnv = {}) {
  let opened: TestApp | undefined;
  const current = () => {
    if (opened === undefined) throw new Error("The suite's app exists only in its hooks and tests");
    return opened;
  };
  const t = {
    get app() {
      return current().app;
    },
    get db() {
      return current().db;
    },
  };

  beforeAll(async () => {
    opened = await createTestApp({ env, deps: { now: () => FIXED_NOW } });
    for (const id of [OWNER, CO_OWNER, ADMIN, DEVELOPER, MEMBER, OUTSIDER]) {
      await insertUser(opened.db, { id, firstName: id.slice(10), lastName: 'Test' });
    }
  });
  afterAll(async () => {
    await opened?.close();
  });

  async function call(userId: string, method: Method, url: string, payload?: unknown, headers: object = {}) {
    const token = await tokenFor(userId, { email: `${userId}@example.com` });
    return t.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }

  /** An organization created through the API by OWNER, with the other roles added as members. */
  async function organizationWithTeam(
    team: Partial<Record<string, MembershipRole>> = { [ADMIN]: 'admin', [DEVELOPER]: 'developer', [MEMBER]: 'member' },
  ): Promise<string> {
    const created = await call(OWNER, 'POST', '/v1/organizations', { name: 'Wanjiku Ventures' });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    const members = Object.entries(team).map(([userId, role]) => ({
      organizationId: id,
      userId,
      role: role ?? 'member',
    }));
    if (members.length > 0) await t.db.insert(memberships).values(members);
    return id;
  }

  async function rolesOf(organizationId: string): Promise<Record<string, MembershipRole>> {
    const rows = await t.db.select().from(memberships).where(eq(memberships.organizationId, organizationId));
    return Object.fromEntries(rows.map((row) => [row.userId, row.role]));
  }

  async function eventsOf(organizationId: string) {
    return t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, organizationId))
      .orderBy(auditEvents.createdAt);
  }

  async function organizationCount(): Promise<number> {
    return (await t.db.select({ id: organizations.id }).from(organizations)).length;
  }

  return { t, call, organizationWithTeam, rolesOf, eventsOf, organizationCount };
}
