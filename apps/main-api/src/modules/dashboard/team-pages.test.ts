import { auditEvents } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type DashboardHarness, startDashboardHarness } from '../../../test/dashboard-harness.js';
import { insertOrganization } from '../../../test/helpers.js';
import type { MailMessage, MailSender } from '../../mail/mail-sender.js';
import { listInvitations } from '../invitations/index.js';
import { listOrganizationMembers } from '../organizations/index.js';

// The Team page (docs/decisions.md#dashboard-pages) as a signed-in browser meets it: the members and invitations,
// inviting, resending and revoking, role changes, removal and leaving, the last-owner rule, and the role policy.

let h: DashboardHarness;
const sent: MailMessage[] = [];
const mail: MailSender = {
  kind: 'smtp',
  async send(message) {
    sent.push(message);
  },
  async close() {},
};

const person = (name: string) => ({
  sub: `user_team_${name}`,
  email: `${name}@team.example.com`,
  givenName: name[0]?.toUpperCase() + name.slice(1),
  familyName: 'Mwangi',
});
const OWNER = person('wanjiku');
const ADMIN = person('achieng');
const DEVELOPER = person('kamau');
const MEMBER = person('njeri');
const OUTSIDER = person('outsider');
const cookies: Record<string, string> = {};
let organizationId: string;
let otherOrganizationId: string;
const PUBLIC_URL = 'http://main-api.test';

beforeAll(async () => {
  h = await startDashboardHarness({ mail });
  for (const [name, account] of Object.entries({ OWNER, ADMIN, DEVELOPER, MEMBER, OUTSIDER })) {
    cookies[name] = await h.signIn(account);
  }
  otherOrganizationId = await insertOrganization(h.t.db, {
    name: 'Other Ltd',
    members: [{ userId: OUTSIDER.sub, role: 'owner' }],
  });
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  sent.length = 0;
  organizationId = await insertOrganization(h.t.db, {
    name: 'Duka Lending',
    members: [
      { userId: OWNER.sub, role: 'owner' },
      { userId: ADMIN.sub, role: 'admin' },
      { userId: DEVELOPER.sub, role: 'developer' },
      { userId: MEMBER.sub, role: 'member' },
    ],
  });
});

const team = (as: string, query = '') => h.get(`/dashboard/team?org=${organizationId}${query}`, cookies[as] ?? '');
/** Posts a Team form as a user, with the form token of their Team page. */
const post = (as: string, path: string, fields: Record<string, string> = {}) =>
  h.post(
    `/dashboard/team${path}?org=${organizationId}`,
    cookies[as] ?? '',
    fields,
    `/dashboard/team?org=${organizationId}`,
  );
const roleOf = async (userId: string) =>
  (await listOrganizationMembers(h.t.db, organizationId)).find((member) => member.userId === userId)?.role;
const invitationsOf = (id = organizationId) => listInvitations(h.t.db, id, new Date(), PUBLIC_URL);
const auditOf = (action: string) =>
  h.t.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.action, action)));

describe('the Team page', () => {
  it('lists the members with their roles, and gives the owner every form', async () => {
    const page = await team('OWNER');
    expect(page.statusCode).toBe(200);
    for (const name of ['Wanjiku Mwangi', 'Achieng Mwangi', 'kamau@team.example.com', 'Njeri Mwangi']) {
      expect(page.body).toContain(name);
    }
    expect(page.body).toContain('Developer');
    expect(page.body).toContain('Send the invitation');
    expect(page.body).toContain('Change the role');
    expect(page.body).toContain('Remove from the team');
    expect(page.body).toContain('aria-current="page">Team</a>');
  });

  it('tells the only owner why they cannot leave or give up the role, instead of the forms', async () => {
    const page = await team('OWNER');
    expect(page.body).toContain('You are the only owner of Duka Lending');
    expect(page.body).not.toContain('Leave Duka Lending');
    expect(page.body).toContain('The only owner: an organization always keeps one');
    expect(page.body).not.toContain(`/members/${OWNER.sub}/role`);
    // Once there is another owner, both may leave and change roles.
    expect((await post('OWNER', `/members/${ADMIN.sub}/role`, { role: 'owner' })).statusCode).toBe(303);
    const after = await team('OWNER');
    expect(after.body).toContain('Leave Duka Lending');
    expect(after.body).toContain(`/members/${OWNER.sub}/role`);
  });

  it('refuses the last owner leaving or being demoted with the page saying why, and changes nothing', async () => {
    const demoted = await post('OWNER', `/members/${OWNER.sub}/role`, { role: 'admin' });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.body).toContain('An organization always keeps an owner: make another member owner first.');
    const left = await post('OWNER', `/members/${OWNER.sub}/remove`);
    expect(left.statusCode).toBe(409);
    expect(await roleOf(OWNER.sub)).toBe('owner');
  });

  it('shows a developer the team without a form that changes it, and refuses their forms', async () => {
    const page = await team('DEVELOPER');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your role lets you see the team');
    expect(page.body).not.toContain('Send the invitation');
    expect(page.body).not.toContain('Change the role');
    expect(page.body).not.toContain('Remove from the team');
    expect(page.body).toContain('Leave Duka Lending');
    const invite = await post('DEVELOPER', '/invitations', { email: 'x@example.com', role: 'member' });
    expect(invite.statusCode).toBe(403);
    expect(await invitationsOf()).toEqual([]);
    const removal = await post('DEVELOPER', `/members/${MEMBER.sub}/remove`);
    expect(removal.statusCode).toBe(403);
    expect(await roleOf(MEMBER.sub)).toBe('member');
  });

  it('does not offer an admin the owner role, nor a form over an owner', async () => {
    const page = await team('ADMIN');
    expect(page.body).toContain('Send the invitation');
    expect(page.body).not.toContain('<option value="owner"');
    expect(page.body).not.toContain(`/members/${OWNER.sub}/role`);
    expect(page.body).toContain(`/members/${DEVELOPER.sub}/role`);
    // The service decides for an owner, as the API's route does.
    const forced = await post('ADMIN', `/members/${OWNER.sub}/role`, { role: 'member' });
    expect(forced.statusCode).toBe(403);
    expect(await roleOf(OWNER.sub)).toBe('owner');
  });

  it('speaks Kiswahili when asked', async () => {
    const page = await team('OWNER', '&lang=sw');
    expect(page.body).toContain('<html lang="sw"');
    expect(page.body).toContain('Alika mtu');
    expect(page.body).toContain('Msanidi');
  });
});

describe('invitations from the Team page', () => {
  it('sends an invitation through the mail path and lists it with its expiry', async () => {
    const answer = await post('ADMIN', '/invitations', { email: 'Neema@Example.com', role: 'developer' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/team?notice=invited');
    const [invitation] = await invitationsOf();
    expect(invitation).toMatchObject({ email: 'Neema@Example.com', role: 'developer', status: 'pending' });
    expect(sent.map((message) => message.to)).toEqual(['Neema@Example.com']);
    const page = await team('ADMIN', '&notice=invited');
    expect(page.body).toContain('The invitation is sent.');
    expect(page.body).toContain('Neema@Example.com');
    expect(page.body).toContain('Expires');
    expect(await auditOf('invitation.created')).toEqual([expect.objectContaining({ actorUserId: ADMIN.sub })]);
  });

  it('answers an address or a role it cannot take with the page, the values kept, and invites no one', async () => {
    const badAddress = await post('OWNER', '/invitations', { email: 'not an address', role: 'member' });
    expect(badAddress.statusCode).toBe(400);
    expect(badAddress.body).toContain('role="alert"');
    expect(badAddress.body).toContain('value="not an address"');
    expect(badAddress.body).toContain('Write one email address, as name@example.com.');
    const badRole = await post('OWNER', '/invitations', { email: 'ok@example.com', role: 'reviewer' });
    expect(badRole.statusCode).toBe(400);
    expect(badRole.body).toContain('Choose one of the roles offered.');
    expect(badRole.body).toContain('value="ok@example.com"');
    const empty = await post('OWNER', '/invitations');
    expect(empty.statusCode).toBe(400);
    const member = await post('OWNER', '/invitations', { email: DEVELOPER.email, role: 'member' });
    expect(member.statusCode).toBe(409);
    expect(member.body).toContain('This address belongs to a member of the team already.');
    expect(await invitationsOf()).toEqual([]);
    expect(sent).toEqual([]);
  });

  it('says in Kiswahili why an address with an invitation waiting is not invited again', async () => {
    expect((await post('OWNER', '/invitations', { email: 'twice@example.com', role: 'member' })).statusCode).toBe(303);
    const again = await h.post(
      `/dashboard/team/invitations?org=${organizationId}&lang=sw`,
      cookies['OWNER'] ?? '',
      { email: 'Twice@Example.com', role: 'member' },
      `/dashboard/team?org=${organizationId}`,
    );
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('<html lang="sw"');
    expect(again.body).toContain('Anwani hii ina mwaliko unaosubiri jibu');
    expect(await invitationsOf()).toHaveLength(1);
  });

  it('refuses an admin inviting an owner', async () => {
    const answer = await post('ADMIN', '/invitations', { email: 'boss@example.com', role: 'owner' });
    expect(answer.statusCode).toBe(403);
    expect(await invitationsOf()).toEqual([]);
  });

  it('resends an invitation, seven days from now, and revokes one, which leaves the list', async () => {
    await post('OWNER', '/invitations', { email: 'a@example.com', role: 'member' });
    const [invitation] = await invitationsOf();
    const id = invitation?.id ?? '';
    sent.length = 0;
    const resent = await post('OWNER', `/invitations/${id}/resend`);
    expect(resent.statusCode).toBe(303);
    expect(resent.headers.location).toBe('/dashboard/team?notice=resent');
    expect(sent.map((message) => message.to)).toEqual(['a@example.com']);
    expect(await auditOf('invitation.resent')).toHaveLength(1);
    expect((await team('OWNER')).body).toContain(`/invitations/${id}/revoke`);

    const revoked = await post('OWNER', `/invitations/${id}/revoke`);
    expect(revoked.statusCode).toBe(303);
    expect((await invitationsOf())[0]?.status).toBe('revoked');
    const page = await team('OWNER', '&notice=revoked');
    expect(page.body).toContain('The invitation is revoked');
    expect(page.body).not.toContain('a@example.com');
    // A revoked invitation is not sent again.
    const again = await post('OWNER', `/invitations/${id}/resend`);
    expect(again.statusCode).toBe(409);
  });

  it("answers another organization's invitation, an unknown one and a malformed id with the 404 page", async () => {
    const theirs = await h.post(
      `/dashboard/team/invitations?org=${otherOrganizationId}`,
      cookies['OUTSIDER'] ?? '',
      { email: 'theirs@example.com', role: 'member' },
      `/dashboard/team?org=${otherOrganizationId}`,
    );
    expect(theirs.statusCode).toBe(303);
    const [other] = await invitationsOf(otherOrganizationId);
    for (const id of [other?.id, '5f0c1a5e-0000-4000-8000-000000000000', 'not-an-id']) {
      for (const action of ['resend', 'revoke']) {
        const answer = await post('OWNER', `/invitations/${id}/${action}`);
        expect(answer.statusCode).toBe(404);
        expect(answer.headers['content-type']).toContain('text/html');
      }
    }
    expect((await invitationsOf(otherOrganizationId))[0]?.status).toBe('pending');
  });
});

describe('members from the Team page', () => {
  it("changes a member's role, read back from the members' list", async () => {
    const answer = await post('OWNER', `/members/${DEVELOPER.sub}/role`, { role: 'admin' });
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/team?notice=roleChanged');
    expect(await roleOf(DEVELOPER.sub)).toBe('admin');
    expect(await auditOf('member.role_changed')).toEqual([
      expect.objectContaining({ targetId: DEVELOPER.sub, details: { from: 'developer', to: 'admin' } }),
    ]);
  });

  it('answers a role it cannot give with the page, and changes nothing', async () => {
    for (const role of ['', 'reviewer', 'superuser']) {
      const answer = await post('OWNER', `/members/${DEVELOPER.sub}/role`, { role });
      expect(answer.statusCode).toBe(400);
      expect(answer.body).toContain('Choose one of the roles offered.');
    }
    expect(await roleOf(DEVELOPER.sub)).toBe('developer');
  });

  it('removes a member', async () => {
    const answer = await post('ADMIN', `/members/${MEMBER.sub}/remove`);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard/team?notice=removed');
    expect(await roleOf(MEMBER.sub)).toBeUndefined();
    expect(await auditOf('member.removed')).toHaveLength(1);
  });

  it('lets a developer leave, back to Home', async () => {
    const answer = await post('DEVELOPER', `/members/${DEVELOPER.sub}/remove`);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe('/dashboard');
    expect(await roleOf(DEVELOPER.sub)).toBeUndefined();
    expect(await auditOf('member.left')).toHaveLength(1);
  });

  it("answers another organization's member and an unknown one with the 404 page", async () => {
    for (const userId of [OUTSIDER.sub, 'user_nobody']) {
      expect((await post('OWNER', `/members/${userId}/remove`)).statusCode).toBe(404);
      expect((await post('OWNER', `/members/${userId}/role`, { role: 'member' })).statusCode).toBe(404);
    }
    expect(
      (await listOrganizationMembers(h.t.db, otherOrganizationId)).map(({ userId, role }) => [userId, role]),
    ).toEqual([[OUTSIDER.sub, 'owner']]);
  });

  it('answers a user who is not a member with the 404 page', async () => {
    const page = await team('OUTSIDER');
    expect(page.statusCode).toBe(404);
    expect(page.body).not.toContain('Duka Lending');
  });
});
