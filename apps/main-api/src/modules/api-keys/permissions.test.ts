import { findActiveApiKey } from '@platform/api-keys';
import { type MembershipRole, membershipRoles } from '@platform/db';
import { apiKeys, auditEvents, memberships } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ALICE, BOB, useApiKeysApp } from '../../../test/api-key-fixtures.js';
import { allows } from '../organizations/index.js';

// An API key given `verified_data:read` (docs/decisions.md#verified-data): only by roles that create keys and hold
// verifications:read_personal_data.

const setup = useApiKeysApp();
const { create, list } = setup;

const asRole = (role: MembershipRole) =>
  setup.t.db
    .update(memberships)
    .set({ role })
    .where(and(eq(memberships.userId, ALICE)));

describe('POST /v1/api-keys with permissions', () => {
  it('defaults to none, and shows the permissions in the answer, the list and the audit record', async () => {
    const plain = await create({ environment: 'test' });
    expect(plain.json().data.permissions).toEqual([]);
    const given = await create({ environment: 'test', permissions: ['verified_data:read'] }, BOB, setup.orgB);
    expect(given.statusCode).toBe(201);
    expect(given.json().data.permissions).toEqual(['verified_data:read']);
    expect(await findActiveApiKey(setup.t.db, given.json().data.secret)).toMatchObject({
      permissions: ['verified_data:read'],
    });
    const listed = (await list('', BOB, setup.orgB)).json().data.apiKeys;
    expect(listed.map((key: { permissions: string[] }) => key.permissions)).toEqual([['verified_data:read']]);
    const [event] = await setup.t.db
      .select({ details: auditEvents.details })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'api_key.created'), eq(auditEvents.targetId, given.json().data.id)));
    expect(event?.details).toMatchObject({ permissions: ['verified_data:read'] });
  });

  it('lets owners and admins give it, and refuses it to every other role that creates keys with 403', async () => {
    for (const role of membershipRoles) {
      if (!allows(role, 'developer:write')) continue;
      await asRole(role);
      const response = await create({ environment: 'test', permissions: ['verified_data:read'] });
      const allowed = role === 'owner' || role === 'admin';
      expect(response.statusCode, role).toBe(allowed ? 201 : 403);
      if (!allowed) {
        expect(response.json()).toMatchObject({ code: 'forbidden' });
        expect(response.json().error).toContain('verified_data:read');
      }
    }
    // Only the owner's and the admin's keys were made.
    expect(await setup.t.db.$count(apiKeys, eq(apiKeys.organizationId, setup.orgA))).toBe(2);
  });

  it('refuses an unknown permission with 400 on /permissions', async () => {
    const response = await create({ environment: 'test', permissions: ['everything'] }, BOB, setup.orgB);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('permissions');
    expect(await setup.t.db.$count(apiKeys, eq(apiKeys.organizationId, setup.orgB))).toBe(0);
  });
});
