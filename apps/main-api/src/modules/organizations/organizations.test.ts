import { randomUUID } from 'node:crypto';
import { organizations, wallets, webhookEndpoints } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../../test/helpers.js';
import { ADMIN, MEMBER, NO_PROFILE, OUTSIDER, OWNER, organizationsSuite } from '../../../test/organizations-suite.js';

const { t, call, organizationWithTeam, rolesOf, eventsOf, organizationCount } = organizationsSuite();

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
        address: null,
        billingEmail: null,
        role: 'owner',
        createdAt: expect.any(String),
      },
    });
    const id = body.data.id as string;
    expect(await rolesOf(id)).toEqual({ [OWNER]: 'owner' });

    const walletRows = await t.db.select().from(wallets).where(eq(wallets.organizationId, id));
    expect(walletRows.map((wallet) => wallet.environment).sort()).toEqual(['live', 'test']);
    // The live wallet empty, the test one with its test credit (docs/decisions.md#test-credit).
    const balances = Object.fromEntries(walletRows.map((wallet) => [wallet.environment, wallet.availableBalance]));
    expect(balances).toEqual({ live: 0, test: 10_000 });
    expect(walletRows.every((wallet) => wallet.heldBalance === 0)).toBe(true);
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
      data: {
        id,
        name: 'Wanjiku Ventures',
        kraPin: null,
        address: null,
        billingEmail: null,
        role: 'member',
        createdAt: expect.any(String),
      },
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
      data: {
        id,
        name: 'Wanjiku Group',
        kraPin: 'A123456789Z',
        address: null,
        billingEmail: null,
        role: 'owner',
        createdAt: expect.any(String),
      },
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
