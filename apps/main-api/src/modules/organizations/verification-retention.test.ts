import { organizations } from '@platform/db/schema';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ADMIN, DEVELOPER, MEMBER, OWNER, organizationsSuite } from '../../../test/organizations-suite.js';

// An organization's own retention period (docs/decisions.md#retention-per-organization): owners and admins set it
// within the platform's bounds (defaults 7 to 2555 days, default 30), null goes back to the default, the audit log
// records it.

const { t, call, organizationWithTeam, eventsOf } = organizationsSuite();

async function storedDays(id: string) {
  const [row] = await t.db.select().from(organizations).where(eq(organizations.id, id));
  return row?.verificationRetentionDays;
}

describe('verification retention per organization', () => {
  it('answers the default and the bounds until the organization sets its own', async () => {
    const id = await organizationWithTeam();
    const response = await call(MEMBER, 'GET', `/v1/organizations/${id}/verification-retention`);
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ days: null, effectiveDays: 30, defaultDays: 30, minDays: 7, maxDays: 2555 });
  });

  it.each([OWNER, ADMIN])(
    'lets %s set a period within the bounds, recorded in the audit log, and clear it',
    async (user) => {
      const id = await organizationWithTeam();
      const set = await call(user, 'PUT', `/v1/organizations/${id}/verification-retention`, { days: 2555 });
      expect(set.statusCode).toBe(200);
      expect(set.json().data).toMatchObject({ days: 2555, effectiveDays: 2555 });
      expect(await storedDays(id)).toBe(2555);
      const cleared = await call(user, 'PUT', `/v1/organizations/${id}/verification-retention`, { days: null });
      expect(cleared.json().data).toMatchObject({ days: null, effectiveDays: 30 });
      expect(await storedDays(id)).toBeNull();
      const changes = (await eventsOf(id)).filter(
        (event) => event.action === 'organization.verification_retention_changed',
      );
      // One clock: both share a time, so their order is not asserted.
      expect(changes.map((event) => event.details)).toHaveLength(2);
      expect(changes.map((event) => event.details)).toEqual(
        expect.arrayContaining([{ days: { from: null, to: 2555 } }, { days: { from: 2555, to: null } }]),
      );
    },
  );

  it.each([6, 2556, 0, -1])(
    'answers 400 for %s days naming the field and the bounds, changing nothing',
    async (days) => {
      const id = await organizationWithTeam();
      const response = await call(OWNER, 'PUT', `/v1/organizations/${id}/verification-retention`, { days });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'validation_error',
        details: [{ path: '/days', message: expect.stringContaining('from 7 to 2555') }],
      });
      expect(await storedDays(id)).toBeNull();
      expect((await eventsOf(id)).some((event) => event.action === 'organization.verification_retention_changed')).toBe(
        false,
      );
    },
  );

  it('answers 400 for a period that is not a whole number', async () => {
    const id = await organizationWithTeam();
    const response = await call(OWNER, 'PUT', `/v1/organizations/${id}/verification-retention`, { days: 30.5 });
    expect(response.statusCode).toBe(400);
    expect(await storedDays(id)).toBeNull();
  });

  it.each([DEVELOPER, MEMBER])('refuses %s with 403', async (user) => {
    const id = await organizationWithTeam();
    const response = await call(user, 'PUT', `/v1/organizations/${id}/verification-retention`, { days: 90 });
    expect(response.statusCode).toBe(403);
    expect(await storedDays(id)).toBeNull();
  });
});
