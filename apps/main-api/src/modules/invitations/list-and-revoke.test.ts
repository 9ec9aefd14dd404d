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
  UNKNOWN_ID,
  useInvitationsApp,
} from '../../../test/invitation-fixtures.js';
import { INVITATION_NOT_FOUND } from './service.js';

const setup = useInvitationsApp();
const { setClock, invite, invited, list, revoke, accept, auditOf } = setup;

describe('GET /v1/organizations/:id/invitations', () => {
  it("lists the organization's invitations newest first, to every member", async () => {
    const older = await invited('a@example.com');
    setClock(new Date(NOW.getTime() + 60_000));
    const newer = await invited('b@example.com');
    await invite({ email: 'c@example.com', role: 'member' }, OUTSIDER, setup.otherOrgId);
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
    await insertUser(setup.t.db, { id: INVITEE, email: INVITEE_EMAIL });
    const { id } = await invited();
    const response = await revoke(id, ADMIN);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      message: 'Invitation revoked',
      data: { id, status: 'revoked', closedAt: NOW.toISOString() },
    });
    setClock(new Date(NOW.getTime() + 1000));
    const again = await revoke(id);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.closedAt).toBe(NOW.toISOString());
    expect((await auditOf(setup.orgId)).filter((event) => event.action === 'invitation.revoked')).toEqual([
      expect.objectContaining({ actorUserId: ADMIN, targetId: id }),
    ]);
    expect((await accept(id)).statusCode).toBe(404);
  });

  it("answers 404 for an unknown id, a malformed one and another organization's invitation", async () => {
    const theirs = (await invite({ email: 'c@example.com', role: 'member' }, OUTSIDER, setup.otherOrgId)).json().data;
    for (const id of [UNKNOWN_ID, 'not-a-uuid', theirs.id]) {
      const response = await revoke(id);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(INVITATION_NOT_FOUND);
    }
  });

  it('refuses to revoke an accepted invitation with 409', async () => {
    await insertUser(setup.t.db, { id: INVITEE, email: INVITEE_EMAIL });
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
