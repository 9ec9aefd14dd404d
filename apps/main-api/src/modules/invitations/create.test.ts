import { notifications, organizationInvitations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../../test/helpers.js';
import {
  ADMIN,
  DEVELOPER,
  INVITEE,
  INVITEE_EMAIL,
  MEMBER,
  NOW,
  OUTSIDER,
  OWNER,
  SEVEN_DAYS_MS,
  useInvitationsApp,
} from '../../../test/invitation-fixtures.js';
import { ALREADY_A_MEMBER, PENDING_INVITATION_EXISTS } from './service.js';

const setup = useInvitationsApp();
const { sent, logs, setClock, failMail, invite, invited, list, auditOf } = setup;

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

    const [row] = await setup.t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row).toMatchObject({
      organizationId: setup.orgId,
      email: INVITEE_EMAIL,
      status: 'pending',
      invitedBy: OWNER,
    });

    const audit = await auditOf(setup.orgId);
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
    // The link opens the invitation's dashboard page; nothing says to run a command.
    expect(email?.text).toContain(`http://main-api.test/dashboard/invitations/${id}`);
    expect(email?.text).not.toContain(body.data.acceptUrl);
    expect(`${email?.text} ${email?.html}`).not.toMatch(/curl|Bearer|POST /);
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
    expect(await setup.t.db.select().from(organizationInvitations)).toHaveLength(0);
  });

  it('answers 404 for an organization the caller is not in', async () => {
    const response = await invite({ email: 'someone@example.com', role: 'member' }, OWNER, setup.otherOrgId);
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('Organization not found');
  });

  it('allows one pending invitation per address, whatever its case', async () => {
    await invited('ann@example.com');
    const second = await invite({ email: 'ANN@Example.COM', role: 'admin' });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toMatchObject({ code: 'conflict', error: PENDING_INVITATION_EXISTS });
    // Another organization may invite the same address.
    expect((await invite({ email: 'ann@example.com', role: 'member' }, OUTSIDER, setup.otherOrgId)).statusCode).toBe(
      201,
    );
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
    await insertUser(setup.t.db, { id: INVITEE, email: 'invitee.person@example.com' });
    const { id } = await invited();
    const notes = await setup.t.db.select().from(notifications).where(eq(notifications.userId, INVITEE));
    expect(notes).toEqual([
      expect.objectContaining({
        organizationId: setup.orgId,
        type: 'info',
        title: 'Invitation to Acme Ltd',
        message: expect.stringContaining('invited you to join Acme Ltd as developer'),
        actionUrl: `/dashboard/invitations/${id}`,
      }),
    ]);
  });

  it('notifies nobody in the app when the address has no profile', async () => {
    await invited('stranger@example.com');
    expect(await setup.t.db.select().from(notifications)).toHaveLength(0);
  });

  it('replaces a pending invitation whose time ran out', async () => {
    const first = await invited('ann@example.com');
    setClock(new Date(NOW.getTime() + SEVEN_DAYS_MS));
    expect((await list()).json().data).toEqual([expect.objectContaining({ id: first.id, status: 'expired' })]);

    const second = await invited('ann@example.com');
    const statuses = (await list()).json().data.map((i: { id: string; status: string }) => [i.id, i.status]);
    expect(statuses).toEqual([
      [second.id, 'pending'],
      [first.id, 'revoked'],
    ]);
    expect((await auditOf(setup.orgId)).map((event) => event.action).sort()).toEqual([
      'invitation.created',
      'invitation.created',
      'invitation.revoked',
    ]);
  });

  it('still creates the invitation when the email cannot be sent, and logs neither address nor accept URL', async () => {
    failMail();
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
    const first = await invite({ email: 'ann@example.com', role: 'member' }, OWNER, setup.orgId, headers);
    const retry = await invite({ email: 'ann@example.com', role: 'member' }, OWNER, setup.orgId, headers);
    expect(first.statusCode).toBe(201);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect(sent).toHaveLength(1);
  });
});
