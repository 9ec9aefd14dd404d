import { randomUUID } from 'node:crypto';
import { memberships, organizationInvitations } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeader, createTestApp, insertOrganization, insertUser, type TestApp } from '../../../test/helpers.js';
import { platformOnlyRoleMessage } from './policy.js';

// The role finance, like reviewer, exists in the platform's own organization only (docs/decisions.md#finance-role):
// inviting a finance member or making a member one anywhere else is 400 and changes nothing; in the platform
// organization both work as for any role.

const OWNER = 'user_finance_role_owner';
const MEMBER = 'user_finance_role_member';
const PLATFORM_ORGANIZATION_ID = randomUUID();
const REFUSED = "The role finance is given only in the platform's own organization";

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

const invite = async (organizationId: string, email: string) =>
  t.app.inject({
    method: 'POST',
    url: `/v1/organizations/${organizationId}/invitations`,
    headers: await authHeader(OWNER),
    payload: { email, role: 'finance' },
  });

const makeFinance = async (organizationId: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/v1/organizations/${organizationId}/members/${MEMBER}`,
    headers: await authHeader(OWNER),
    payload: { role: 'finance' },
  });

async function roleOf(organizationId: string) {
  const [row] = await t.db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, MEMBER)));
  return row?.role;
}

describe('the role finance', () => {
  it('is refused outside the platform organization, by invitation and by a role change, changing nothing', async () => {
    expect(platformOnlyRoleMessage('finance')).toBe(REFUSED);
    for (const response of [await invite(customerId, 'cashier@example.com'), await makeFinance(customerId)]) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'validation_error',
        error: REFUSED,
        details: [{ path: '/role', message: REFUSED }],
      });
    }
    expect(await t.db.$count(organizationInvitations, eq(organizationInvitations.organizationId, customerId))).toBe(0);
    expect(await roleOf(customerId)).toBe('member');
  });

  it('is given in the platform organization, by invitation and by a role change', async () => {
    const invited = await invite(PLATFORM_ORGANIZATION_ID, 'finance@example.com');
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ data: { role: 'finance', status: 'pending' } });
    const changed = await makeFinance(PLATFORM_ORGANIZATION_ID);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await roleOf(PLATFORM_ORGANIZATION_ID)).toBe('finance');
  });
});
