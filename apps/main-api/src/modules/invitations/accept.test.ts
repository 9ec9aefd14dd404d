import { memberships, organizationInvitations, organizations } from '@platform/db/schema';
import { and, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { insertUser } from '../../../test/helpers.js';
import {
  INVITEE,
  INVITEE_EMAIL,
  NOW,
  OUTSIDER,
  OWNER,
  SEVEN_DAYS_MS,
  UNKNOWN_ID,
  useInvitationsApp,
} from '../../../test/invitation-fixtures.js';
import { INVITATION_NOT_FOUND } from './service.js';

const setup = useInvitationsApp();
const { logs, setClock, invite, invited, list, accept, auditOf } = setup;

describe('POST /v1/invitations/:invitationId/accept', () => {
  beforeEach(async () => {
    await insertUser(setup.t.db, { id: INVITEE, email: 'invitee.person@example.com' });
  });

  it('makes the invitee a member in the invited role and closes the invitation', async () => {
    const { id } = await invited(INVITEE_EMAIL, 'billing');
    const clock = setClock(new Date(NOW.getTime() + 3600_000));
    const response = await accept(id);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      success: true,
      message: expect.any(String),
      data: {
        organizationId: setup.orgId,
        organizationName: 'Acme Ltd',
        role: 'billing',
        joinedAt: clock.toISOString(),
      },
    });
    const [membership] = await setup.t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, setup.orgId), eq(memberships.userId, INVITEE)));
    expect(membership?.role).toBe('billing');
    const [row] = await setup.t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row).toMatchObject({ status: 'accepted', acceptedBy: INVITEE, closedAt: clock });

    const audit = (await auditOf(setup.orgId)).filter((event) => event.actorUserId === INVITEE);
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
    await insertUser(setup.t.db, { id: 'user_invitations_twin', email: 'twin@example.com' });
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
    await insertUser(setup.t.db, { id: 'user_invitations_ceo', email: 'ceo_a9bd0e@acme.test' });
    await insertUser(setup.t.db, { id: 'user_invitations_claimant', email: 'claimant@acme.test' });
    const { id } = await invited('ceo_a9bd0e@acme.test', 'admin');

    const claimed = await accept(id, 'user_invitations_claimant', 'CEO_A9BD0E@acme.test');
    expect(claimed.statusCode).toBe(404);
    expect(claimed.json()).toMatchObject({ code: 'not_found', error: INVITATION_NOT_FOUND });
    const [row] = await setup.t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row?.status).toBe('pending');
    const claimantMembership = await setup.t.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, setup.orgId), eq(memberships.userId, 'user_invitations_claimant')));
    expect(claimantMembership).toEqual([]);

    // The account that has the address accepts it, its token writing the address in either case.
    const accepted = await accept(id, 'user_invitations_ceo', 'Ceo_A9bd0e@Acme.Test');
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().data.role).toBe('admin');
  });

  it('answers 404 once the invitation expired (7 days)', async () => {
    const { id } = await invited();
    setClock(new Date(NOW.getTime() + SEVEN_DAYS_MS));
    expect((await accept(id)).statusCode).toBe(404);
    setClock(new Date(NOW.getTime() + SEVEN_DAYS_MS - 1));
    expect((await accept(id)).statusCode).toBe(200);
  });

  it('answers 404 to a second acceptance and for a retired organization', async () => {
    const { id } = await invited();
    expect((await accept(id)).statusCode).toBe(200);
    expect((await accept(id)).statusCode).toBe(404);

    const other = (await invite({ email: INVITEE_EMAIL, role: 'member' }, OUTSIDER, setup.otherOrgId)).json().data;
    await setup.t.db.update(organizations).set({ retiredAt: NOW }).where(eq(organizations.id, setup.otherOrgId));
    expect((await accept(other.id)).statusCode).toBe(404);
  });

  it('answers 409 to a caller who is a member already, and leaves the invitation pending', async () => {
    const { id } = await invited();
    await setup.t.db.insert(memberships).values({ organizationId: setup.orgId, userId: INVITEE, role: 'member' });
    const response = await accept(id);
    expect(response.statusCode).toBe(409);
    const [row] = await setup.t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
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

describe('GET /v1/invitations/:invitationId/accept', () => {
  it("sends a browser that opens an accept URL to the invitation's dashboard page, without a token", async () => {
    const { id, acceptUrl } = await invited();
    const opened = await setup.t.app.inject({ method: 'GET', url: new URL(acceptUrl).pathname });
    expect(opened.statusCode).toBe(303);
    expect(opened.headers.location).toBe(`/dashboard/invitations/${id}`);
    expect(opened.body).toBe('');
    // Opening it accepts nothing: accepting stays a POST.
    const [row] = await setup.t.db.select().from(organizationInvitations).where(eq(organizationInvitations.id, id));
    expect(row?.status).toBe('pending');
  });
});
