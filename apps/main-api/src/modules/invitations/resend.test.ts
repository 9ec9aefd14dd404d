import { describe, expect, it } from 'vitest';
import { authHeader, insertUser } from '../../../test/helpers.js';
import {
  ADMIN,
  DEVELOPER,
  INVITEE,
  INVITEE_EMAIL,
  NOW,
  OUTSIDER,
  SEVEN_DAYS_MS,
  UNKNOWN_ID,
  useInvitationsApp,
} from '../../../test/invitation-fixtures.js';
import { INVITATION_NOT_FOUND } from './service.js';

// POST /v1/organizations/:id/invitations/:invitationId/resend (docs/decisions.md#invitations): the same email again,
// seven days from now, recorded; never for an accepted or revoked invitation, nor another organization's.

const setup = useInvitationsApp();
const { sent, setClock, invite, invited, revoke, accept, auditOf, list } = setup;

async function resend(invitationId: string, userId = ADMIN, organizationId = setup.orgId, headers = {}) {
  return setup.t.app.inject({
    method: 'POST',
    url: `/v1/organizations/${organizationId}/invitations/${invitationId}/resend`,
    headers: { ...(await authHeader(userId)), ...headers },
  });
}

describe('POST /v1/organizations/:id/invitations/:invitationId/resend', () => {
  it('emails the invitation again with the link to its page, gives it seven days from now and records it', async () => {
    const { id, acceptUrl } = await invited();
    sent.length = 0;
    const later = setClock(new Date(NOW.getTime() + 3 * 24 * 60 * 60 * 1000));
    const response = await resend(id);
    expect(response.statusCode).toBe(200);
    const expiresAt = new Date(later.getTime() + SEVEN_DAYS_MS).toISOString();
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Invitation sent again',
      data: { id, status: 'pending', acceptUrl, expiresAt },
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.to).toBe(INVITEE_EMAIL);
    expect(sent[0]?.text).toContain(`http://main-api.test/dashboard/invitations/${id}`);
    expect(sent[0]?.text).not.toContain('curl');
    // In the name of who invited (the owner), not of the admin who resent it.
    expect(sent[0]?.subject).toContain('Olive Owner');
    expect((await list()).json().data[0]).toMatchObject({ id, expiresAt });
    expect((await auditOf(setup.orgId)).filter((event) => event.action === 'invitation.resent')).toEqual([
      expect.objectContaining({
        actorUserId: ADMIN,
        targetId: id,
        details: { email: INVITEE_EMAIL, role: 'developer', expiresAt },
      }),
    ]);
  });

  it('makes an expired invitation pending again, so it can be accepted', async () => {
    await insertUser(setup.t.db, { id: INVITEE, email: INVITEE_EMAIL });
    const { id } = await invited();
    setClock(new Date(NOW.getTime() + SEVEN_DAYS_MS + 1000));
    expect((await list()).json().data[0].status).toBe('expired');
    expect((await resend(id)).json().data.status).toBe('pending');
    expect((await accept(id)).statusCode).toBe(200);
  });

  it('refuses a revoked or an accepted invitation with 409, and sends nothing', async () => {
    await insertUser(setup.t.db, { id: INVITEE, email: INVITEE_EMAIL });
    const accepted = await invited();
    expect((await accept(accepted.id)).statusCode).toBe(200);
    const revoked = await invited('gone@example.com');
    await revoke(revoked.id);
    sent.length = 0;
    for (const id of [accepted.id, revoked.id]) {
      const response = await resend(id);
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('conflict');
    }
    expect(sent).toEqual([]);
    expect((await auditOf(setup.orgId)).filter((event) => event.action === 'invitation.resent')).toEqual([]);
  });

  it("answers 404 for an unknown id, a malformed one and another organization's invitation", async () => {
    const theirs = (await invite({ email: 'c@example.com', role: 'member' }, OUTSIDER, setup.otherOrgId)).json().data;
    for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
      const response = await resend(id);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(INVITATION_NOT_FOUND);
    }
  });

  it('needs members:write, and owners:write for an invitation to be owner', async () => {
    const { id } = await invited();
    const developer = await resend(id, DEVELOPER);
    expect(developer.statusCode).toBe(403);
    expect(developer.json().error).toBe('This needs the role owner or admin');
    const owner = await invited('next-owner@example.com', 'owner');
    const admin = await resend(owner.id, ADMIN);
    expect(admin.statusCode).toBe(403);
    expect(admin.json().error).toBe('This needs the role owner');
  });

  it('answers a retry with the same Idempotency-Key with the first resend, and emails once', async () => {
    const { id } = await invited();
    sent.length = 0;
    const headers = { 'idempotency-key': 'resend-1' };
    const first = await resend(id, ADMIN, setup.orgId, headers);
    setClock(new Date(NOW.getTime() + 60_000));
    const again = await resend(id, ADMIN, setup.orgId, headers);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(sent).toHaveLength(1);
  });
});
