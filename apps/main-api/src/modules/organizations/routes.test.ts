import { randomUUID } from 'node:crypto';
import { createApiKey, findActiveApiKey } from '@platform/api-keys';
import { type MembershipRole, queryRows } from '@platform/db';
import {
  auditEvents,
  ledgerTransactions,
  mailSubscriptions,
  memberships,
  organizationInvitations,
  organizations,
  wallets,
  webhookEndpoints,
} from '@platform/db/schema';
import { topUpWallet } from '@platform/ledger';
import { setDefaultWebhookUrl } from '@platform/webhooks';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { createTestApp, insertUser, type TestApp, tokenFor } from '../../../test/helpers.js';

const OWNER = 'user_orgs_owner';
const CO_OWNER = 'user_orgs_co_owner';
const ADMIN = 'user_orgs_admin';
const DEVELOPER = 'user_orgs_developer';
const MEMBER = 'user_orgs_member';
const OUTSIDER = 'user_orgs_outsider';
const NO_PROFILE = 'user_orgs_no_profile';
const FIXED_NOW = new Date('2024-06-15T12:00:00.000Z');

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => FIXED_NOW } });
  for (const id of [OWNER, CO_OWNER, ADMIN, DEVELOPER, MEMBER, OUTSIDER]) {
    await insertUser(t.db, { id, firstName: id.slice(10), lastName: 'Test' });
  }
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

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

describe('POST /v1/organizations', () => {
  it('creates the organization with the caller as owner, its wallets and webhook endpoints, in one go', async () => {
    const response = await call(OWNER, 'POST', '/v1/organizations', { name: '  Wanjiku Ventures ' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      message: 'Organization created',
      data: {
        id: expect.any(String),
        name: 'Wanjiku Ventures',
        kraPin: null,
        role: 'owner',
        createdAt: expect.any(String),
      },
    });
    const id = body.data.id as string;
    expect(await rolesOf(id)).toEqual({ [OWNER]: 'owner' });

    const walletRows = await t.db.select().from(wallets).where(eq(wallets.organizationId, id));
    expect(walletRows.map((wallet) => wallet.environment).sort()).toEqual(['live', 'test']);
    expect(walletRows.every((wallet) => wallet.availableBalance === 0 && wallet.heldBalance === 0)).toBe(true);
    const endpoints = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, id));
    expect(endpoints.map((endpoint) => endpoint.environment).sort()).toEqual(['live', 'test']);
    for (const endpoint of endpoints) expect(endpoint.secret).toMatch(/^whsec_/);
    expect(endpoints[0]?.secret).not.toBe(endpoints[1]?.secret);

    const events = await eventsOf(id);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'organization.created',
        actorUserId: OWNER,
        targetType: 'organization',
        targetId: id,
        requestId: expect.any(String),
      }),
    ]);
    expect(JSON.stringify(events)).not.toMatch(/whsec_/);
  });

  it('takes a KRA PIN in lower case and stores it upper case', async () => {
    const response = await call(OWNER, 'POST', '/v1/organizations', {
      name: 'Otieno Logistics',
      kraPin: 'p051234567q',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.kraPin).toBe('P051234567Q');
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, response.json().data.id));
    expect(row?.kraPin).toBe('P051234567Q');
  });

  it.each([
    ['no name', {}],
    ['a blank name', { name: '   ' }],
    ['a 101-character name', { name: 'x'.repeat(101) }],
    ['a control character in the name', { name: 'Ab\u0007c' }],
    ['a number as name', { name: 42 }],
    ['a KRA PIN with eight digits', { name: 'A', kraPin: 'P05123456Q' }],
    ['a KRA PIN with ten digits', { name: 'A', kraPin: 'P0512345678Q' }],
    ['a KRA PIN starting with a digit', { name: 'A', kraPin: '1051234567Q' }],
    ['a KRA PIN without its last letter', { name: 'A', kraPin: 'P051234567' }],
    ['a KRA PIN with spaces', { name: 'A', kraPin: ' P051234567Q' }],
    ['null as KRA PIN', { name: 'A', kraPin: null }],
    ['an unknown field', { name: 'A', plan: 'enterprise' }],
  ])('answers 400 for %s, creating nothing', async (_label, body) => {
    const before = await organizationCount();
    const response = await call(OWNER, 'POST', '/v1/organizations', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
    expect(await organizationCount()).toBe(before);
  });

  it('answers 404 "Profile not found" to a user without a profile, creating nothing', async () => {
    const before = await organizationCount();
    const response = await call(NO_PROFILE, 'POST', '/v1/organizations', { name: 'Ghost Ltd' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ success: false, code: 'not_found', error: 'Profile not found' });
    expect(await organizationCount()).toBe(before);
  });

  it('answers a retry with the same Idempotency-Key with the first organization, and refuses the key for another body', async () => {
    const key = randomUUID();
    const first = await call(OWNER, 'POST', '/v1/organizations', { name: 'Retry Ltd' }, { 'idempotency-key': key });
    expect(first.statusCode).toBe(201);
    const before = await organizationCount();
    const retry = await call(OWNER, 'POST', '/v1/organizations', { name: 'Retry Ltd' }, { 'idempotency-key': key });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(await organizationCount()).toBe(before);

    const other = await call(OWNER, 'POST', '/v1/organizations', { name: 'Other Ltd' }, { 'idempotency-key': key });
    expect(other.statusCode).toBe(422);
    expect(await organizationCount()).toBe(before);
  });

  it("does not replay one user's key to another user", async () => {
    const key = randomUUID();
    const first = await call(OWNER, 'POST', '/v1/organizations', { name: 'Keyed Ltd' }, { 'idempotency-key': key });
    const second = await call(OUTSIDER, 'POST', '/v1/organizations', { name: 'Keyed Ltd' }, { 'idempotency-key': key });
    expect(second.statusCode).toBe(201);
    expect(second.json().data.id).not.toBe(first.json().data.id);
    expect(second.json().data.role).toBe('owner');
  });
});

describe('GET /v1/organizations', () => {
  it("lists the caller's organizations newest first with the caller's role, and no one else's", async () => {
    const user = `user_orgs_list_${randomUUID()}`;
    await insertUser(t.db, { id: user });
    expect((await call(user, 'GET', '/v1/organizations')).json()).toEqual({ success: true, data: [] });

    const own = await call(user, 'POST', '/v1/organizations', { name: 'First' });
    await new Promise((resolve) => setImmediate(resolve));
    const theirs = await organizationWithTeam({ [user]: 'developer' });
    await call(OUTSIDER, 'POST', '/v1/organizations', { name: 'Not mine' });

    const response = await call(user, 'GET', '/v1/organizations');
    expect(response.statusCode).toBe(200);
    const data = response.json().data as { id: string; role: string; name: string }[];
    expect(data.map(({ id, role }) => ({ id, role }))).toEqual([
      { id: theirs, role: 'developer' },
      { id: own.json().data.id, role: 'owner' },
    ]);
  });

  it('answers 404 "Profile not found" to a user without a profile', async () => {
    const response = await call(NO_PROFILE, 'GET', '/v1/organizations');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ error: 'Profile not found', code: 'not_found' });
  });
});

describe('GET /v1/organizations/:id', () => {
  it("answers the organization with the caller's role to any member", async () => {
    const id = await organizationWithTeam();
    const response = await call(MEMBER, 'GET', `/v1/organizations/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      data: { id, name: 'Wanjiku Ventures', kraPin: null, role: 'member', createdAt: expect.any(String) },
    });
  });

  it("answers another organization's id, an unknown one and a malformed one with the same 404", async () => {
    const id = await organizationWithTeam();
    const answers = await Promise.all(
      [id, randomUUID(), 'not-a-uuid'].map(async (target) =>
        (await call(OUTSIDER, 'GET', `/v1/organizations/${target}`)).json(),
      ),
    );
    for (const answer of answers) {
      expect(answer).toMatchObject({ success: false, code: 'not_found', error: 'Organization not found' });
    }
  });
});

describe('PATCH /v1/organizations/:id', () => {
  it('renames the organization and sets, then clears, its KRA PIN, recording each change', async () => {
    const id = await organizationWithTeam();
    const renamed = await call(OWNER, 'PATCH', `/v1/organizations/${id}`, {
      name: ' Wanjiku Group ',
      kraPin: 'a123456789z',
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({
      success: true,
      message: 'Organization updated',
      data: { id, name: 'Wanjiku Group', kraPin: 'A123456789Z', role: 'owner', createdAt: expect.any(String) },
    });
    const cleared = await call(OWNER, 'PATCH', `/v1/organizations/${id}`, { kraPin: null });
    expect(cleared.json().data).toMatchObject({ name: 'Wanjiku Group', kraPin: null });

    const updates = (await eventsOf(id)).filter((event) => event.action === 'organization.updated');
    expect(updates.map((event) => event.details)).toEqual([
      { name: { from: 'Wanjiku Ventures', to: 'Wanjiku Group' }, kraPin: { from: null, to: 'A123456789Z' } },
      { kraPin: { from: 'A123456789Z', to: null } },
    ]);
  });

  it('records nothing when nothing changes', async () => {
    const id = await organizationWithTeam();
    const response = await call(OWNER, 'PATCH', `/v1/organizations/${id}`, { name: 'Wanjiku Ventures' });
    expect(response.statusCode).toBe(200);
    expect((await eventsOf(id)).map((event) => event.action)).toEqual(['organization.created']);
  });

  it.each([
    ['an empty body', {}],
    ['a blank name', { name: ' ' }],
    ['a malformed KRA PIN', { kraPin: 'A12345678Z' }],
    ['an unknown field', { retiredAt: null }],
  ])('answers 400 for %s', async (_label, body) => {
    const id = await organizationWithTeam();
    const response = await call(OWNER, 'PATCH', `/v1/organizations/${id}`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'validation_error' });
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
    expect(row).toMatchObject({ name: 'Wanjiku Ventures', kraPin: null });
  });

  it('answers 403 naming the owner role to an admin, and 404 to an outsider', async () => {
    const id = await organizationWithTeam();
    const admin = await call(ADMIN, 'PATCH', `/v1/organizations/${id}`, { name: 'Admin Ltd' });
    expect(admin.statusCode).toBe(403);
    expect(admin.json()).toMatchObject({ code: 'forbidden', error: 'This needs the role owner' });
    const outsider = await call(OUTSIDER, 'PATCH', `/v1/organizations/${id}`, { name: 'Outsider Ltd' });
    expect(outsider.statusCode).toBe(404);
    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
    expect(row?.name).toBe('Wanjiku Ventures');
  });
});

describe('DELETE /v1/organizations/:id', () => {
  it('deletes an organization that never moved money, with everything it owns, and keeps its audit log', async () => {
    const id = await organizationWithTeam();
    const response = await call(OWNER, 'DELETE', `/v1/organizations/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Organization deleted',
      data: { id, deleted: true, retiredAt: null },
    });
    expect(await t.db.select().from(organizations).where(eq(organizations.id, id))).toEqual([]);
    expect(await t.db.select().from(wallets).where(eq(wallets.organizationId, id))).toEqual([]);
    expect(await rolesOf(id)).toEqual({});
    expect((await eventsOf(id)).map((event) => event.action)).toEqual(['organization.created', 'organization.deleted']);
    expect((await call(OWNER, 'GET', `/v1/organizations/${id}`)).statusCode).toBe(404);
  });

  it("cancels a retired organization's running mail subscription, so its card is never charged again", async () => {
    const id = await organizationWithTeam();
    await t.db.transaction((tx) =>
      topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: 100, reference: `test:${id}` }),
    );
    const [subscription] = await t.db
      .insert(mailSubscriptions)
      .values({
        organizationId: id,
        plan: 'core',
        seats: 5,
        billingCycle: 'monthly',
        status: 'active',
        currentPeriodStart: new Date('2024-06-01T00:00:00Z'),
        currentPeriodEnd: new Date('2024-07-01T00:00:00Z'),
        renewalDueAt: new Date('2024-07-01T00:00:00Z'),
      })
      .returning();

    const response = await call(OWNER, 'DELETE', `/v1/organizations/${id}`);
    expect(response.json().data).toMatchObject({ deleted: false });
    const [after] = await t.db.select().from(mailSubscriptions).where(eq(mailSubscriptions.id, subscription!.id));
    expect(after).toMatchObject({ status: 'canceled', renewalDueAt: null });
    const actions = (await eventsOf(id)).map((event) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['subscription.canceled', 'organization.retired']));
  });

  it('retires an organization with money history: keys and invitations revoked, callbacks cleared, members removed', async () => {
    const id = await organizationWithTeam();
    await t.db.transaction((tx) =>
      topUpWallet(tx, { organizationId: id, environment: 'live' }, { amount: 500, reference: `test:${id}` }),
    );
    const key = await createApiKey(t.db, { organizationId: id, environment: 'live' });
    await setDefaultWebhookUrl(t.db, {
      organizationId: id,
      environment: 'live',
      defaultUrl: 'https://example.com/hook',
      now: FIXED_NOW,
    });
    await t.db.insert(organizationInvitations).values([
      {
        organizationId: id,
        email: 'new@example.com',
        role: 'developer',
        expiresAt: new Date(FIXED_NOW.getTime() + 86_400_000),
      },
    ]);

    const response = await call(OWNER, 'DELETE', `/v1/organizations/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: 'Organization retired',
      data: { id, deleted: false, retiredAt: FIXED_NOW.toISOString() },
    });

    const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
    expect(row?.retiredAt?.toISOString()).toBe(FIXED_NOW.toISOString());
    expect(await rolesOf(id)).toEqual({});
    expect(await findActiveApiKey(t.db, key.secret)).toBeNull();
    const invitations = await t.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.organizationId, id));
    expect(invitations.map((invitation) => invitation.status)).toEqual(['revoked']);
    const endpoints = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, id));
    expect(endpoints.map((endpoint) => endpoint.defaultUrl)).toEqual([null, null]);
    const [wallet] = await t.db
      .select()
      .from(wallets)
      .where(and(eq(wallets.organizationId, id), eq(wallets.environment, 'live')));
    expect(wallet?.availableBalance).toBe(500);
    expect(
      await t.db
        .select()
        .from(ledgerTransactions)
        .where(eq(ledgerTransactions.walletId, wallet?.id ?? '')),
    ).toHaveLength(1);

    const retired = (await eventsOf(id)).find((event) => event.action === 'organization.retired');
    expect(retired?.details).toEqual({
      name: 'Wanjiku Ventures',
      apiKeysRevoked: 1,
      invitationsRevoked: 1,
      membersRemoved: 4,
      subscriptionCanceled: false,
      transfersVoided: 0,
      paymentsWithProviders: 0,
      refundsDue: 0,
    });
    expect(JSON.stringify(retired)).not.toContain(key.secret);

    expect((await call(OWNER, 'GET', `/v1/organizations/${id}`)).statusCode).toBe(404);
    const listed = (await call(OWNER, 'GET', '/v1/organizations')).json().data as { id: string }[];
    expect(listed.map((organization) => organization.id)).not.toContain(id);
  });

  it.each([ADMIN, DEVELOPER, MEMBER])('answers 403 naming the owner role to %s, changing nothing', async (userId) => {
    const id = await organizationWithTeam();
    const response = await call(userId, 'DELETE', `/v1/organizations/${id}`);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: 'This needs the role owner' });
    expect(await t.db.select().from(organizations).where(eq(organizations.id, id))).toHaveLength(1);
  });

  it("answers 404 to an outsider, for another organization's id as for an unknown one", async () => {
    const id = await organizationWithTeam();
    const theirs = await call(OUTSIDER, 'DELETE', `/v1/organizations/${id}`);
    const unknown = await call(OUTSIDER, 'DELETE', `/v1/organizations/${randomUUID()}`);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: 'Organization not found' });
    expect(unknown.json()).toMatchObject({ error: 'Organization not found' });
    expect(await t.db.select().from(organizations).where(eq(organizations.id, id))).toHaveLength(1);
  });
});

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

// Real concurrent transactions: PGlite runs one query at a time, so these run on PostgreSQL only (CI sets
// DATABASE_URL). The test holds the owner memberships' lock while both requests start, and lets go once both wait
// for it, so the two transactions overlap on every run, however the machine schedules them.
describe.skipIf(missing(postgresServer))('always one owner, under concurrent requests (PostgreSQL)', () => {
  async function lockOwners(organizationId: string) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction(async (tx) => {
      await tx
        .select({ userId: memberships.userId })
        .from(memberships)
        .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, 'owner')))
        .for('update');
      locked();
      await released;
    });
    await Promise.race([isLocked, holder]);
    return {
      release: async () => {
        release();
        await holder;
      },
    };
  }

  /** Resolves once `count` other connections wait for a lock on the memberships. */
  function untilWaiting(count: number) {
    return eventually(
      async () => {
        const rows = await queryRows<{ query: string }>(
          t.db,
          sql`select query from pg_stat_activity
              where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'
                and query like '%"memberships"%for update%'`,
        );
        return rows.length >= count;
      },
      { what: `${count} requests waiting for the owners' lock` },
    );
  }

  async function race(organizationId: string, requests: () => Promise<{ statusCode: number }>[]) {
    const lock = await lockOwners(organizationId);
    let sent: Promise<{ statusCode: number }[]> | undefined;
    try {
      sent = Promise.all(requests());
      await untilWaiting(2);
    } finally {
      await lock.release();
    }
    return sent;
  }

  it('leaves exactly one owner when two owners demote each other at once: the second gets 409', async () => {
    const id = await organizationWithTeam({ [CO_OWNER]: 'owner' });
    const responses = await race(id, () => [
      call(OWNER, 'PATCH', `/v1/organizations/${id}/members/${CO_OWNER}`, { role: 'admin' }),
      call(CO_OWNER, 'PATCH', `/v1/organizations/${id}/members/${OWNER}`, { role: 'admin' }),
    ]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(Object.values(await rolesOf(id)).filter((role) => role === 'owner')).toHaveLength(1);
    expect((await eventsOf(id)).filter((event) => event.action === 'member.role_changed')).toHaveLength(1);
  });

  it('leaves exactly one owner when two owners leave at once', async () => {
    const id = await organizationWithTeam({ [CO_OWNER]: 'owner' });
    const leave = (userId: string) => call(userId, 'DELETE', `/v1/organizations/${id}/members/${userId}`);
    const responses = await race(id, () => [leave(OWNER), leave(CO_OWNER)]);
    expect(responses.map((response) => response.statusCode).sort()).toEqual([200, 409]);
    expect(Object.values(await rolesOf(id))).toEqual(['owner']);
  });
});
