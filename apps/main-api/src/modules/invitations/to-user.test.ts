import { organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { insertUser } from '../../../test/helpers.js';
import {
  INVITEE,
  INVITEE_EMAIL,
  NOW,
  OUTSIDER,
  SEVEN_DAYS_MS,
  useInvitationsApp,
} from '../../../test/invitation-fixtures.js';
import { invitationsToUser } from './service.js';

// The invitations a user can accept now, as the dashboard's Home lists them: addressed to their profile's address in
// any case, pending, not expired, of an organization not retired.

const setup = useInvitationsApp();
const { invite, invited, revoke, setClock } = setup;

describe('invitationsToUser', () => {
  it('lists the pending invitations to the profile address, oldest first, and none once closed or expired', async () => {
    await insertUser(setup.t.db, { id: INVITEE, email: INVITEE_EMAIL.toLowerCase() });
    expect(await invitationsToUser(setup.t.db, INVITEE, NOW)).toEqual([]);
    const first = await invited(INVITEE_EMAIL, 'developer');
    setClock(new Date(NOW.getTime() + 1000));
    const second = (await invite({ email: INVITEE_EMAIL, role: 'member' }, OUTSIDER, setup.otherOrgId)).json().data;
    await invited('someone.else@example.com');

    const listed = await invitationsToUser(setup.t.db, INVITEE, NOW);
    expect(listed.map(({ id, role, organizationName }) => ({ id, role, organizationName }))).toEqual([
      { id: first.id, role: 'developer', organizationName: 'Acme Ltd' },
      { id: second.id, role: 'member', organizationName: 'Other' },
    ]);
    expect(await invitationsToUser(setup.t.db, 'user_without_profile', NOW)).toEqual([]);

    await revoke(first.id);
    expect((await invitationsToUser(setup.t.db, INVITEE, NOW)).map(({ id }) => id)).toEqual([second.id]);
    await setup.t.db.update(organizations).set({ retiredAt: NOW }).where(eq(organizations.id, setup.otherOrgId));
    expect(await invitationsToUser(setup.t.db, INVITEE, NOW)).toEqual([]);
  });

  it('leaves out an invitation whose 7 days have passed', async () => {
    await insertUser(setup.t.db, { id: INVITEE, email: INVITEE_EMAIL });
    await invited(INVITEE_EMAIL);
    expect(await invitationsToUser(setup.t.db, INVITEE, new Date(NOW.getTime() + SEVEN_DAYS_MS - 1))).toHaveLength(1);
    expect(await invitationsToUser(setup.t.db, INVITEE, new Date(NOW.getTime() + SEVEN_DAYS_MS))).toEqual([]);
  });
});
