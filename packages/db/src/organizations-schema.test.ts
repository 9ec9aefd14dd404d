import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.js';
import { databaseErrorOf } from './database-error.js';
import { auditEvents, organizationInvitations, organizations, users } from './schema/index.js';
import { createTestDatabase } from './testing.js';

// What the database itself keeps for organizations (migrations 0010, 0011 and 0028): the KRA PIN's shape, the address's and billing email's lengths, one pending
// invitation per address and organization, and an audit log that can be added to but never changed. Runs on
// PGlite, and on PostgreSQL with DATABASE_URL.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseErrorCode(work: Promise<unknown>): Promise<string | undefined> {
  try {
    await work;
  } catch (error) {
    return (((error as { cause?: unknown }).cause ?? error) as { code?: string }).code;
  }
  throw new Error('Expected the statement to fail');
}

async function newOrganization(name: string, kraPin?: string): Promise<string> {
  const [organization] = await handle.db.insert(organizations).values({ name, kraPin }).returning();
  return organization!.id;
}

const inAWeek = () => new Date(Date.now() + 7 * 86_400_000);

describe('organizations', () => {
  it('keep a KRA PIN only in its shape: a letter, nine digits, a letter', async () => {
    await expect(newOrganization('Pinned', 'P051234567X')).resolves.toBeTypeOf('string');
    expect(await databaseErrorCode(newOrganization('Lower', 'p051234567x'))).toBe('23514');
    expect(await databaseErrorCode(newOrganization('Short', 'P05123456X'))).toBe('23514');
  });

  it('keep an address of 1-200 characters and a billing email of 3-254, or none', async () => {
    const values = (fields: { address?: string; billingEmail?: string }) =>
      handle.db.insert(organizations).values({ name: 'Addressed', ...fields });
    await expect(values({ address: 'P.O. Box 1\nNairobi', billingEmail: 'a@b.ke' })).resolves.toBeDefined();
    expect(await databaseErrorCode(values({ address: '' }))).toBe('23514');
    expect(await databaseErrorCode(values({ address: 'x'.repeat(201) }))).toBe('23514');
    expect(await databaseErrorCode(values({ billingEmail: 'a@' }))).toBe('23514');
    expect(await databaseErrorCode(values({ billingEmail: `${'a'.repeat(250)}@b.ke` }))).toBe('23514');
  });

  it('take the five roles in memberships and invitations, and no other', async () => {
    const organizationId = await newOrganization('Roles');
    await handle.db.insert(users).values({ id: 'user_roles_schema', email: 'roles-schema@example.com' });
    await handle.db.execute(
      sql`insert into memberships (organization_id, user_id, role) values (${organizationId}, 'user_roles_schema', 'developer')`,
    );
    const refused = handle.db.execute(
      sql`update memberships set role = 'superuser' where organization_id = ${organizationId}`,
    );
    expect(await databaseErrorCode(refused)).toBe('23514');
  });
});

describe('organization invitations', () => {
  it('allow one pending invitation per address, whatever its case, and another once the first is closed', async () => {
    const organizationId = await newOrganization('Inviting');
    const invite = (email: string) =>
      handle.db
        .insert(organizationInvitations)
        .values({ organizationId, email, role: 'member', expiresAt: inAWeek() })
        .returning();
    const [first] = await invite('Colleague@Example.com');
    const second = await invite('colleague@example.com').then(
      () => undefined,
      (error: unknown) => error,
    );
    // Named by the index, on either driver, as the invitations repository reads it.
    expect(databaseErrorOf(second)).toEqual({ code: '23505', constraint: 'organization_invitations_one_pending_idx' });
    expect(databaseErrorOf('not a database error')).toBeUndefined();

    await handle.db
      .update(organizationInvitations)
      .set({ status: 'revoked', closedAt: new Date() })
      .where(eq(organizationInvitations.id, first!.id));
    await expect(invite('colleague@example.com')).resolves.toHaveLength(1);
  });
});

describe('the audit log', () => {
  it('is append-only: updating or deleting an event is refused by the database', async () => {
    const organizationId = await newOrganization('Audited');
    const [event] = await handle.db
      .insert(auditEvents)
      .values({
        organizationId,
        action: 'member.added',
        targetType: 'user',
        targetId: 'user_x',
        details: { role: 'admin' },
      })
      .returning();
    expect(event!.details).toEqual({ role: 'admin' });

    const update = handle.db.update(auditEvents).set({ action: 'member.removed' }).where(eq(auditEvents.id, event!.id));
    expect(await databaseErrorCode(update)).toBe('23001');
    expect(await databaseErrorCode(handle.db.delete(auditEvents).where(eq(auditEvents.id, event!.id)))).toBe('23001');

    const [kept] = await handle.db.select().from(auditEvents).where(eq(auditEvents.id, event!.id));
    expect(kept!.action).toBe('member.added');
  });

  it('outlives the organization it is about', async () => {
    const organizationId = await newOrganization('Short-lived');
    await handle.db
      .insert(auditEvents)
      .values({ organizationId, action: 'organization.created', targetType: 'organization', targetId: organizationId });
    await handle.db.delete(organizations).where(eq(organizations.id, organizationId));
    const rows = await handle.db.select().from(auditEvents).where(eq(auditEvents.organizationId, organizationId));
    expect(rows).toHaveLength(1);
  });
});
