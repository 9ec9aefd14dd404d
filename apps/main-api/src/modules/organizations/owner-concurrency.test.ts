import { queryRows } from '@platform/db';
import { memberships } from '@platform/db/schema';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { eventually } from '#test-timing';
import { CO_OWNER, OWNER, organizationsSuite } from '../../../test/organizations-suite.js';

const { t, call, organizationWithTeam, rolesOf, eventsOf } = organizationsSuite();

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
