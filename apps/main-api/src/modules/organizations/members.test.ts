import { memberships } from '@platform/db/schema';
import { describe, expect, it } from 'vitest';
import {
  ADMIN,
  CO_OWNER,
  DEVELOPER,
  MEMBER,
  OUTSIDER,
  OWNER,
  organizationsSuite,
} from '../../../test/organizations-suite.js';

const { t, call, organizationWithTeam, rolesOf, eventsOf } = organizationsSuite();

describe('GET /v1/organizations/:id/members', () => {
  it('lists every member with names, email, role and joining time, to any member', async () => {
    const id = await organizationWithTeam();
    const response = await call(MEMBER, 'GET', `/v1/organizations/${id}/members`);
    expect(response.statusCode).toBe(200);
    const data = response.json().data as { userId: string; role: string }[];
    expect(data).toHaveLength(4);
    expect(data[0]).toEqual({
      userId: OWNER,
      email: `${OWNER}@example.com`,
      firstName: 'owner',
      lastName: 'Test',
      role: 'owner',
      joinedAt: expect.any(String),
    });
    expect(Object.fromEntries(data.map((member) => [member.userId, member.role]))).toEqual({
      [OWNER]: 'owner',
      [ADMIN]: 'admin',
      [DEVELOPER]: 'developer',
      [MEMBER]: 'member',
    });
  });

  it('answers 404 to an outsider', async () => {
    const id = await organizationWithTeam();
    const response = await call(OUTSIDER, 'GET', `/v1/organizations/${id}/members`);
    expect(response.statusCode).toBe(404);
  });
});

describe('PATCH /v1/organizations/:id/members/:userId', () => {
  const changeRole = (actor: string, id: string, userId: string, role: unknown) =>
    call(actor, 'PATCH', `/v1/organizations/${id}/members/${userId}`, { role });

  it("lets an admin change a non-owner's role, and records it", async () => {
    const id = await organizationWithTeam();
    const response = await changeRole(ADMIN, id, DEVELOPER, 'billing');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Member role updated',
      data: expect.objectContaining({ userId: DEVELOPER, role: 'billing' }),
    });
    expect((await rolesOf(id))[DEVELOPER]).toBe('billing');
    const [event] = (await eventsOf(id)).filter((row) => row.action === 'member.role_changed');
    expect(event).toMatchObject({
      actorUserId: ADMIN,
      targetType: 'user',
      targetId: DEVELOPER,
      details: { from: 'developer', to: 'billing' },
    });
  });

  it.each([
    ['make an owner', DEVELOPER, 'owner'],
    ['demote an owner', OWNER, 'admin'],
  ])('answers 403 "This needs the role owner" when an admin tries to %s', async (_label, target, role) => {
    const id = await organizationWithTeam();
    const before = await rolesOf(id);
    const response = await changeRole(ADMIN, id, target, role);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden', error: 'This needs the role owner' });
    expect(await rolesOf(id)).toEqual(before);
  });

  it.each([DEVELOPER, MEMBER])('answers 403 "This needs the role owner or admin" to %s', async (actor) => {
    const id = await organizationWithTeam();
    const response = await changeRole(actor, id, MEMBER, 'billing');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'This needs the role owner or admin' });
  });

  it('lets an owner make another owner, and that owner demote the first', async () => {
    const id = await organizationWithTeam();
    expect((await changeRole(OWNER, id, ADMIN, 'owner')).statusCode).toBe(200);
    expect((await changeRole(ADMIN, id, OWNER, 'member')).statusCode).toBe(200);
    expect(await rolesOf(id)).toMatchObject({ [OWNER]: 'member', [ADMIN]: 'owner' });
  });

  it('answers 409 when the last owner would be demoted, themselves included', async () => {
    const id = await organizationWithTeam();
    const response = await changeRole(OWNER, id, OWNER, 'admin');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'conflict', error: 'An organization must keep at least one owner' });
    expect((await rolesOf(id))[OWNER]).toBe('owner');
  });

  it('answers 200 without recording anything when the role is already the one asked for', async () => {
    const id = await organizationWithTeam();
    const response = await changeRole(OWNER, id, OWNER, 'owner');
    expect(response.statusCode).toBe(200);
    expect((await eventsOf(id)).map((event) => event.action)).toEqual(['organization.created']);
  });

  it('answers 404 "Member not found" for a user who is not a member, and 404 to an outsider', async () => {
    const id = await organizationWithTeam();
    const unknown = await changeRole(OWNER, id, OUTSIDER, 'admin');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: 'Member not found' });
    const outsider = await changeRole(OUTSIDER, id, MEMBER, 'admin');
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json()).toMatchObject({ error: 'Organization not found' });
  });

  it.each([
    ['an unknown role', 'superuser'],
    ['no role', undefined],
  ])('answers 400 for %s', async (_label, role) => {
    const id = await organizationWithTeam();
    const response = await changeRole(OWNER, id, MEMBER, role);
    expect(response.statusCode).toBe(400);
  });
});

describe('DELETE /v1/organizations/:id/members/:userId', () => {
  const remove = (actor: string, id: string, userId: string) =>
    call(actor, 'DELETE', `/v1/organizations/${id}/members/${userId}`);

  it.each([DEVELOPER, MEMBER])('lets %s leave, recorded as member.left', async (userId) => {
    const id = await organizationWithTeam();
    const response = await remove(userId, id, userId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'You left the organization' });
    expect(await rolesOf(id)).not.toHaveProperty(userId);
    const [event] = (await eventsOf(id)).filter((row) => row.action === 'member.left');
    expect(event).toMatchObject({ actorUserId: userId, targetId: userId });
    expect((await call(userId, 'GET', `/v1/organizations/${id}`)).statusCode).toBe(404);
  });

  it('lets an admin remove a member, recorded as member.removed', async () => {
    const id = await organizationWithTeam();
    const response = await remove(ADMIN, id, MEMBER);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Member removed' });
    const [event] = (await eventsOf(id)).filter((row) => row.action === 'member.removed');
    expect(event).toMatchObject({ actorUserId: ADMIN, targetId: MEMBER, details: { role: 'member' } });
  });

  it('answers 403 when a developer removes someone else, or an admin removes an owner', async () => {
    const id = await organizationWithTeam();
    const developer = await remove(DEVELOPER, id, MEMBER);
    expect(developer.statusCode).toBe(403);
    expect(developer.json()).toMatchObject({ error: 'This needs the role owner or admin' });
    const admin = await remove(ADMIN, id, OWNER);
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toMatchObject({ error: 'This needs the role owner' });
    expect(Object.keys(await rolesOf(id))).toHaveLength(4);
  });

  it('answers 409 when the last owner leaves, and lets an owner go once there is another', async () => {
    const id = await organizationWithTeam();
    const last = await remove(OWNER, id, OWNER);
    expect(last.statusCode).toBe(409);
    expect(last.json()).toMatchObject({ code: 'conflict', error: 'An organization must keep at least one owner' });

    await t.db.insert(memberships).values({ organizationId: id, userId: CO_OWNER, role: 'owner' });
    expect((await remove(CO_OWNER, id, OWNER)).statusCode).toBe(200);
    expect((await remove(CO_OWNER, id, CO_OWNER)).statusCode).toBe(409);
    expect((await rolesOf(id))[CO_OWNER]).toBe('owner');
  });

  it('answers 404 "Member not found" for a user who is not a member', async () => {
    const id = await organizationWithTeam();
    const response = await remove(MEMBER, id, OUTSIDER);
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'Member not found' });
  });
});
