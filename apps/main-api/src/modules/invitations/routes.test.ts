import {
  auditEvents,
  memberships,
  notifications,
  organizationInvitations,
  organizations,
  users,
} from '@platform/db/schema';
import { captureLogs } from '@platform/http/testing';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, insertOrganization, insertUser, type TestApp, tokenFor } from '../../../test/helpers.js';
import type { MailMessage, MailSender } from '../../mail/mail-sender.js';
import { ALREADY_A_MEMBER, INVITATION_NOT_FOUND, PENDING_INVITATION_EXISTS } from './service.js';

const OWNER = 'user_invitations_owner';
const ADMIN = 'user_invitations_admin';
const DEVELOPER = 'user_invitations_developer';
const MEMBER = 'user_invitations_member';
const INVITEE = 'user_invitations_invitee';
const OUTSIDER = 'user_invitations_outsider';
const INVITEE_EMAIL = 'Invitee.Person@Example.com';
const NOW = new Date('2024-06-15T12:00:00.000Z');
const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;
const UNKNOWN_ID = '3f9a1c1e-7a4b-4e8e-9d55-0d0f6f1d2c3b';

/** Keeps what it is asked to send; fails every send while `failing` (with the address in its message, as servers do). */
const sent: MailMessage[] = [];
let failing = false;
const mail: MailSender = {
  kind: 'smtp',
  async send(message) {
    if (failing) {
      throw Object.assign(new Error(`550 <${message.to}> rejected`), { code: 'EENVELOPE', responseCode: 550 });
    }
    sent.push(message);
  },
  async close() {},
};

const logs = captureLogs();
let clock = NOW;
let t: TestApp;
let orgId: string;
let otherOrgId: string;

beforeAll(async () => {
  t = await createTestApp({ deps: { now: () => clock, mail, logger: logs.logger } });
});
afterAll(async () => {
  await t?.close();
});

beforeEach(async () => {
  clock = NOW;
  sent.length = 0;
  failing = false;
  await t.db.delete(organizations);
  await t.db.delete(users);
  await insertUser(t.db, { id: OWNER, email: 'owner@acme.example', firstName: 'Olive', lastName: 'Owner' });
  for (const id of [ADMIN, DEVELOPER, MEMBER, OUTSIDER]) await insertUser(t.db, { id });
  orgId = await insertOrganization(t.db, {
    name: 'Acme Ltd',
    members: [
      { userId: OWNER, role: 'owner' },
      { userId: ADMIN, role: 'admin' },
      { userId: DEVELOPER, role: 'developer' },
      { userId: MEMBER, role: 'member' },
    ],
  });
  otherOrgId = await insertOrganization(t.db, { name: 'Other', members: [{ userId: OUTSIDER }] });
});

async function bearer(userId: string, email?: string) {
  return { authorization: `Bearer ${await tokenFor(userId, email === undefined ? {} : { email })}` };
}

async function invite(payload: object, userId = OWNER, organizationId = orgId, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: `/v1/organizations/${organizationId}/invitations`,
    headers: { ...(await bearer(userId)), ...headers },
    payload,
  });
}

async function invited(email = INVITEE_EMAIL, role = 'developer'): Promise<{ id: string; acceptUrl: string }> {
  const response = await invite({ email, role });
  expect(response.statusCode).toBe(201);
  return response.json().data;
}

async function list(userId = OWNER, organizationId = orgId) {
  return t.app.inject({
    method: 'GET',
    url: `/v1/organizations/${organizationId}/invitations`,
    headers: await bearer(userId),
  });
}

async function revoke(invitationId: string, userId = OWNER, organizationId = orgId) {
  return t.app.inject({
    method: 'DELETE',
    url: `/v1/organizations/${organizationId}/invitations/${invitationId}`,
    headers: await bearer(userId),
  });
}

/** Accepts as `userId`, whose token carries `email` (none when null). */
async function accept(invitationId: string, userId = INVITEE, email: string | null = 'invitee.person@example.COM') {
  return t.app.inject({
    method: 'POST',
    url: `/v1/invitations/${invitationId}/accept`,
    headers: await bearer(userId, email ?? undefined),
  });
}

const auditOf = (organizationId: string) =>
  t.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId));

describe('POST /v1/organizations/:id/invitations', () => {
  it('creates a pending invitation valid 7 days, with its accept URL, audit record and email', async () => {
    const response = await invite({ email: INVITEE_EMAIL, role: 'developer' });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    const { id } = body.data;
    expect(body).toEqual({
      success: true,
      message: 'Invitation created',
      data: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        email: INVITEE_EMAIL,
        role: 'developer',
        status: 'pending',
        invitedBy: OWNER,
        createdAt: NOW.toISOString(),
        expiresAt: new Date(NOW.getTime() + SEVEN_DAYS_MS).toISOString(),
        closedAt: null,
        acceptUrl: `http://main-api.test/v1/invitations/${id}/accept`,
      },
    });

    const [row] = await t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row).toMatchObject({ organizationId: orgId, email: INVITEE_EMAIL, status: 'pending', invitedBy: OWNER });

    const audit = await auditOf(orgId);
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'invitation.created',
        actorUserId: OWNER,
        targetType: 'invitation',
        targetId: id,
        details: { email: INVITEE_EMAIL, role: 'developer' },
      }),
    ]);
    expect(JSON.stringify(audit)).not.toContain('/accept');

    expect(sent).toHaveLength(1);
    const [email] = sent;
    expect(email?.to).toBe(INVITEE_EMAIL);
    expect(email?.subject).toBe('Olive Owner (owner@acme.example) invited you to Acme Ltd');
    expect(email?.text).toContain('invited you to join Acme Ltd as developer');
    expect(email?.text).toContain(body.data.acceptUrl);
    expect(email?.text).toContain('expires on 2024-06-22 12:00 UTC');
  });

  it('lets an admin invite every role but owner, which needs the owner role', async () => {
    expect((await invite({ email: 'dev@example.com', role: 'admin' }, ADMIN)).statusCode).toBe(201);
    const owner = await invite({ email: 'boss@example.com', role: 'owner' }, ADMIN);
    expect(owner.statusCode).toBe(403);
    expect(owner.json()).toMatchObject({ code: 'forbidden', error: 'This needs the role owner' });
    expect((await invite({ email: 'boss@example.com', role: 'owner' }, OWNER)).statusCode).toBe(201);
  });

  it.each([DEVELOPER, MEMBER])('refuses %s with 403 naming the roles that may invite', async (userId) => {
    const response = await invite({ email: 'someone@example.com', role: 'member' }, userId);
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'forbidden', error: 'This needs the role owner or admin' });
    expect(await t.db.select().from(organizationInvitations)).toHaveLength(0);
  });

  it('answers 404 for an organization the caller is not in', async () => {
    const response = await invite({ email: 'someone@example.com', role: 'member' }, OWNER, otherOrgId);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('Organization not found');
  });

  it('allows one pending invitation per address, whatever its case', async () => {
    await invited('ann@example.com');
    const second = await invite({ email: 'ANN@Example.COM', role: 'admin' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'conflict', error: PENDING_INVITATION_EXISTS });
    // Another organization may invite the same address.
    expect((await invite({ email: 'ann@example.com', role: 'member' }, OUTSIDER, otherOrgId)).statusCode).toBe(201);
  });

  it('refuses the address of a member (case-insensitive) with 409', async () => {
    const response = await invite({ email: 'OWNER@acme.example', role: 'member' }, ADMIN);
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ code: 'conflict', error: ALREADY_A_MEMBER });
  });

  it.each([
    ['no address', { email: 'colleague', role: 'member' }, '/email'],
    ['two addresses', { email: 'a@example.com, b@example.com', role: 'member' }, '/email'],
    ['a name and address', { email: 'Ann <a@example.com>', role: 'member' }, '/email'],
    ['more than 320 characters', { email: `a@${'d'.repeat(320)}.example`, role: 'member' }, '/email'],
    ['an unknown role', { email: 'a@example.com', role: 'superuser' }, '/role'],
    ['an unknown field', { email: 'a@example.com', role: 'member', note: 'hi' }, ''],
  ])('refuses %s with 400', async (_label, payload, path) => {
    const response = await invite(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('validation_error');
    if (path !== '') expect(JSON.stringify(response.json())).toContain(path);
  });

  it('notifies an invitee who has a profile, in the app', async () => {
    await insertUser(t.db, { id: INVITEE, email: 'invitee.person@example.com' });
    const { acceptUrl } = await invited();
    const notes = await t.db.select().from(notifications).where(eq(notifications.userId, INVITEE));
    expect(notes).toEqual([
      expect.objectContaining({
        organizationId: orgId,
        type: 'info',
        title: 'Invitation to Acme Ltd',
        message: expect.stringContaining('invited you to join Acme Ltd as developer'),
        actionUrl: acceptUrl,
      }),
    ]);
  });

  it('notifies nobody in the app when the address has no profile', async () => {
    await invited('stranger@example.com');
    expect(await t.db.select().from(notifications)).toHaveLength(0);
  });

  it('replaces a pending invitation whose time ran out', async () => {
    const first = await invited('ann@example.com');
    clock = new Date(NOW.getTime() + SEVEN_DAYS_MS);
    expect((await list()).json().data).toEqual([expect.objectContaining({ id: first.id, status: 'expired' })]);

    const second = await invited('ann@example.com');
    const statuses = (await list()).json().data.map((i: { id: string; status: string }) => [i.id, i.status]);
    expect(statuses).toEqual([
      [second.id, 'pending'],
      [first.id, 'revoked'],
    ]);
    expect((await auditOf(orgId)).map((event) => event.action).sort()).toEqual([
      'invitation.created',
      'invitation.created',
      'invitation.revoked',
    ]);
  });

  it('still creates the invitation when the email cannot be sent, and logs neither address nor accept URL', async () => {
    failing = true;
    const from = logs.lines.length;
    const response = await invite({ email: INVITEE_EMAIL, role: 'member' });
    expect(response.statusCode).toBe(201);
    const { id, acceptUrl } = response.json().data;
    const lines = logs.lines.slice(from);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 40, invitationId: id, errorCode: 'EENVELOPE', responseCode: 550 }),
    );
    const text = JSON.stringify(lines).toLowerCase();
    expect(text).not.toContain(INVITEE_EMAIL.toLowerCase());
    expect(text).not.toContain(acceptUrl.toLowerCase());
  });

  it('answers a retry with the same Idempotency-Key with the first invitation, and emails once', async () => {
    const headers = { 'idempotency-key': 'invite-ann-1' };
    const first = await invite({ email: 'ann@example.com', role: 'member' }, OWNER, orgId, headers);
    const retry = await invite({ email: 'ann@example.com', role: 'member' }, OWNER, orgId, headers);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(sent).toHaveLength(1);
  });
});

describe('GET /v1/organizations/:id/invitations', () => {
  it("lists the organization's invitations newest first, to every member", async () => {
    const older = await invited('a@example.com');
    clock = new Date(NOW.getTime() + 60_000);
    const newer = await invited('b@example.com');
    await invite({ email: 'c@example.com', role: 'member' }, OUTSIDER, otherOrgId);
    await revoke(older.id);

    const response = await list(MEMBER);
    expect(response.statusCode).toBe(200);
    expect(response.json().data.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [newer.id, 'pending'],
      [older.id, 'revoked'],
    ]);
  });

  it('answers 404 to a non-member', async () => {
    expect((await list(OUTSIDER)).statusCode).toBe(404);
  });
});

describe('DELETE /v1/organizations/:id/invitations/:invitationId', () => {
  it('revokes: the invitation can no longer be accepted; a second revocation keeps the first', async () => {
    await insertUser(t.db, { id: INVITEE, email: INVITEE_EMAIL });
    const { id } = await invited();
    const response = await revoke(id, ADMIN);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Invitation revoked',
      data: { id, status: 'revoked', closedAt: NOW.toISOString() },
    });
    clock = new Date(NOW.getTime() + 1000);
    const again = await revoke(id);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.closedAt).toBe(NOW.toISOString());
    expect((await auditOf(orgId)).filter((event) => event.action === 'invitation.revoked')).toEqual([
      expect.objectContaining({ actorUserId: ADMIN, targetId: id }),
    ]);
    expect((await accept(id)).statusCode).toBe(404);
  });

  it("answers 404 for an unknown id, a malformed one and another organization's invitation", async () => {
    const theirs = (await invite({ email: 'c@example.com', role: 'member' }, OUTSIDER, otherOrgId)).json().data;
    for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
      const response = await revoke(id);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(INVITATION_NOT_FOUND);
    }
  });

  it('refuses to revoke an accepted invitation with 409', async () => {
    await insertUser(t.db, { id: INVITEE, email: INVITEE_EMAIL });
    const { id } = await invited();
    expect((await accept(id)).statusCode).toBe(200);
    const response = await revoke(id);
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('conflict');
  });

  it.each([DEVELOPER, MEMBER])('refuses %s with 403', async (userId) => {
    const { id } = await invited();
    const response = await revoke(id, userId);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('This needs the role owner or admin');
  });
});

describe('POST /v1/invitations/:invitationId/accept', () => {
  beforeEach(async () => {
    await insertUser(t.db, { id: INVITEE, email: 'invitee.person@example.com' });
  });

  it('makes the invitee a member in the invited role and closes the invitation', async () => {
    const { id } = await invited(INVITEE_EMAIL, 'billing');
    clock = new Date(NOW.getTime() + 3600_000);
    const response = await accept(id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: expect.any(String),
      data: { organizationId: orgId, organizationName: 'Acme Ltd', role: 'billing', joinedAt: clock.toISOString() },
    });
    const [membership] = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, orgId), eq(memberships.userId, INVITEE)));
    expect(membership?.role).toBe('billing');
    const [row] = await t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row).toMatchObject({ status: 'accepted', acceptedBy: INVITEE, closedAt: clock });

    const audit = (await auditOf(orgId)).filter((event) => event.actorUserId === INVITEE);
    expect(
      audit
        .map(({ action, targetType, targetId }) => ({ action, targetType, targetId }))
        .sort((a, b) => a.action.localeCompare(b.action)),
    ).toEqual([
      { action: 'invitation.accepted', targetType: 'invitation', targetId: id },
      { action: 'member.added', targetType: 'user', targetId: INVITEE },
    ]);
    expect(JSON.stringify(audit)).not.toContain('/accept');

    // The new member acts for the organization in that role.
    expect((await list(INVITEE)).statusCode).toBe(200);
    expect((await invite({ email: 'x@example.com', role: 'member' }, INVITEE)).statusCode).toBe(403);
  });

  it('answers the same 404 to another address, a token without one, a caller without a profile and unknown ids', async () => {
    const { id } = await invited();
    await insertUser(t.db, { id: 'user_invitations_twin', email: 'twin@example.com' });
    const attempts = [
      await accept(id, INVITEE, 'someone.else@example.com'),
      await accept(id, INVITEE, null),
      await accept(id, 'user_invitations_no_profile', INVITEE_EMAIL),
      await accept(id, OWNER, 'owner@acme.example'),
      await accept(UNKNOWN_ID),
      await accept('not-a-uuid'),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ success: false, code: 'not_found', error: INVITATION_NOT_FOUND });
    }
    expect((await accept(id)).statusCode).toBe(200);
  });

  it('is accepted only by the account whose profile has the address, whatever case another token writes it in', async () => {
    // The invitation is meant for the CEO's account; another account's token claims the address in upper case.
    await insertUser(t.db, { id: 'user_invitations_ceo', email: 'ceo_a9bd0e@acme.test' });
    await insertUser(t.db, { id: 'user_invitations_claimant', email: 'claimant@acme.test' });
    const { id } = await invited('ceo_a9bd0e@acme.test', 'admin');

    const claimed = await accept(id, 'user_invitations_claimant', 'CEO_A9BD0E@acme.test');
    expect(claimed.statusCode).toBe(404);
    expect(claimed.json()).toMatchObject({ code: 'not_found', error: INVITATION_NOT_FOUND });
    const [row] = await t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row?.status).toBe('pending');
    const claimantMembership = await t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, orgId), eq(memberships.userId, 'user_invitations_claimant')));
    expect(claimantMembership).toEqual([]);

    // The account that has the address accepts it, its token writing the address in either case.
    const accepted = await accept(id, 'user_invitations_ceo', 'Ceo_A9bd0e@Acme.Test');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.role).toBe('admin');
  });

  it('answers 404 once the invitation expired (7 days)', async () => {
    const { id } = await invited();
    clock = new Date(NOW.getTime() + SEVEN_DAYS_MS);
    expect((await accept(id)).statusCode).toBe(404);
    clock = new Date(NOW.getTime() + SEVEN_DAYS_MS - 1);
    expect((await accept(id)).statusCode).toBe(200);
  });

  it('answers 404 to a second acceptance and for a retired organization', async () => {
    const { id } = await invited();
    expect((await accept(id)).statusCode).toBe(200);
    expect((await accept(id)).statusCode).toBe(404);

    const other = (await invite({ email: INVITEE_EMAIL, role: 'member' }, OUTSIDER, otherOrgId)).json().data;
    await t.db.update(organizations).set({ retiredAt: NOW }).where(eq(organizations.id, otherOrgId));
    expect((await accept(other.id)).statusCode).toBe(404);
  });

  it('answers 409 to a caller who is a member already, and leaves the invitation pending', async () => {
    const { id } = await invited();
    await t.db.insert(memberships).values({ organizationId: orgId, userId: INVITEE, role: 'member' });
    const response = await accept(id);
    expect(response.statusCode).toBe(409);
    const [row] = await t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row?.status).toBe('pending');
  });

  it('logs neither the accept URL nor the address', async () => {
    const from = logs.lines.length;
    const { id, acceptUrl } = await invited();
    expect((await accept(id)).statusCode).toBe(200);
    const text = JSON.stringify(logs.lines.slice(from)).toLowerCase();
    expect(logs.lines.length).toBeGreaterThan(from);
    expect(text).not.toContain(acceptUrl.toLowerCase());
    expect(text).not.toContain(`/v1/invitations/${id}`);
    expect(text).not.toContain(INVITEE_EMAIL.toLowerCase());
  });
});
