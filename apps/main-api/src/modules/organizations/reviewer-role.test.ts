import { randomUUID } from 'node:crypto';
import { memberships, organizationInvitations } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { REVIEWER_ONLY_IN_PLATFORM } from './policy.js';

// The role reviewer exists in the platform's own organization only (docs/decisions.md#manual-review): inviting a
// reviewer or making a member one anywhere else is 400 and changes nothing; in the platform organization both work
// as for any role. Without PLATFORM_ORGANIZATION_ID no organization gives the role.

const OWNER = 'user_reviewer_role_owner';
const MEMBER = 'user_reviewer_role_member';
const PLATFORM_ORGANIZATION_ID = randomUUID();

let t: TestApp;
let customerId: string;

beforeAll(async () => {
  t = await createTestApp({ env: { PLATFORM_ORGANIZATION_ID } });
  for (const id of [OWNER, MEMBER]) await insertUser(t.db, { id });
  const team = [
    { userId: OWNER, role: 'owner' as const },
    { userId: MEMBER, role: 'member' as const },
  ];
  await insertOrganization(t.db, { id: PLATFORM_ORGANIZATION_ID, members: team });
  customerId = await insertOrganization(t.db, { members: team });
});
afterAll(async () => {
  await t?.close();
});

const invite = async (organizationId: string, email: string, app = t.app) =>
  app.inject({
    method: 'POST',
    url: `/v1/organizations/${organizationId}/invitations`,
    headers: await authHeader(OWNER),
    payload: { email, role: 'reviewer' },
  });

const makeReviewer = async (organizationId: string, app = t.app) =>
  app.inject({
    method: 'PATCH',
    url: `/v1/organizations/${organizationId}/members/${MEMBER}`,
    headers: await authHeader(OWNER),
    payload: { role: 'reviewer' },
  });

async function roleOf(db: TestApp['db'], organizationId: string, userId: string) {
  const [row] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return row?.role;
}

function expectRefused(response: Awaited<ReturnType<typeof invite>>) {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json()).toMatchObject({
    code: 'validation_error',
    error: REVIEWER_ONLY_IN_PLATFORM,
    details: [{ path: '/role', message: REVIEWER_ONLY_IN_PLATFORM }],
  });
}

describe('the role reviewer', () => {
  it('is not given by invitation outside the platform organization', async () => {
    expectRefused(await invite(customerId, 'someone@example.com'));
    expect(await t.db.$count(organizationInvitations, eq(organizationInvitations.organizationId, customerId))).toBe(0);
  });

  it('is not given by a role change outside the platform organization', async () => {
    expectRefused(await makeReviewer(customerId));
    expect(await roleOf(t.db, customerId, MEMBER)).toBe('member');
  });

  it('is given in the platform organization, by invitation and by a role change', async () => {
    const invited = await invite(PLATFORM_ORGANIZATION_ID, 'reviewer@example.com');
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ data: { role: 'reviewer', status: 'pending' } });
    const changed = await makeReviewer(PLATFORM_ORGANIZATION_ID);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await roleOf(t.db, PLATFORM_ORGANIZATION_ID, MEMBER)).toBe('reviewer');
  });

  it('is given nowhere without PLATFORM_ORGANIZATION_ID', async () => {
    const other = await createTestApp();
    try {
      await insertUser(other.db, { id: OWNER });
      await insertUser(other.db, { id: MEMBER });
      const organizationId = await insertOrganization(other.db, {
        members: [
          { userId: OWNER, role: 'owner' },
          { userId: MEMBER, role: 'member' },
        ],
      });
      expectRefused(await invite(organizationId, 'someone@example.com', other.app));
      expectRefused(await makeReviewer(organizationId, other.app));
      expect(await roleOf(other.db, organizationId, MEMBER)).toBe('member');
    } finally {
      await other.close();
    }
  });
});
