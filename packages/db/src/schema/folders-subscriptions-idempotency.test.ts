import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../client.js';
import { createTestDatabase } from '../testing.js';
import { driveFolders, idempotencyRecords, mailSubscriptions, organizations } from './index.js';

/** The database error behind drizzle's wrapper, whichever driver raised it. */
async function databaseError(work: Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work;
  } catch (error) {
    return ((error as { cause?: unknown }).cause ?? error) as { code?: string; message: string };
  }
  throw new Error('Expected the statement to fail');
}

async function expectViolation(work: Promise<unknown>, code: string, constraint: string): Promise<void> {
  const error = await databaseError(work);
  expect(error.code).toBe(code);
  expect(error.message).toContain(constraint);
}

describe('drive folders, mail subscriptions and idempotency records', () => {
  let handle: DatabaseHandle;
  const acme = '0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e01';
  const globex = '0b6f3c1e-1f7d-4c55-8f3a-5d7a1c2b9e02';

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    await handle.db.execute(
      sql`truncate drive_folders, mail_subscriptions, idempotency_records, organizations cascade`,
    );
    await handle.db.insert(organizations).values([
      { id: acme, name: 'Acme' },
      { id: globex, name: 'Globex' },
    ]);
  });

  const folder = (values: Partial<typeof driveFolders.$inferInsert> & { name: string }) =>
    handle.db
      .insert(driveFolders)
      .values({ organizationId: acme, environment: 'live', ...values })
      .returning();

  describe('drive_folders', () => {
    it('keeps sibling names unique ignoring case, at the top level and inside a folder', async () => {
      const [parent] = await folder({ name: 'Clients' });
      await expectViolation(folder({ name: 'CLIENTS' }), '23505', 'drive_folders_sibling_name_unique');
      await folder({ name: 'Reports', parentId: parent!.id });
      await expectViolation(
        folder({ name: 'reports', parentId: parent!.id }),
        '23505',
        'drive_folders_sibling_name_unique',
      );
      // The same name elsewhere is fine: another parent, environment or organization.
      await folder({ name: 'Reports' });
      await folder({ name: 'Clients', environment: 'test' });
      await folder({ name: 'Clients', organizationId: globex });
    });

    it('refuses a parent of another organization or environment', async () => {
      const [parent] = await folder({ name: 'Clients' });
      await expectViolation(
        folder({ name: 'Sub', parentId: parent!.id, organizationId: globex }),
        '23503',
        'drive_folders_parent_fk',
      );
      await expectViolation(
        folder({ name: 'Sub', parentId: parent!.id, environment: 'test' }),
        '23503',
        'drive_folders_parent_fk',
      );
    });

    it('refuses to delete a folder that has folders inside', async () => {
      const [parent] = await folder({ name: 'Clients' });
      await folder({ name: 'Sub', parentId: parent!.id });
      await expectViolation(
        handle.db.execute(sql`delete from drive_folders where id = ${parent!.id}`),
        '23503',
        'drive_folders_parent_fk',
      );
    });

    it('goes with its organization, nested folders included', async () => {
      const [parent] = await folder({ name: 'Clients' });
      await folder({ name: 'Sub', parentId: parent!.id });
      await handle.db.execute(sql`delete from organizations where id = ${acme}`);
      expect(await handle.db.$count(driveFolders)).toBe(0);
    });

    it.each([
      ['empty', ''],
      ['256 characters long', 'x'.repeat(256)],
      ['containing a slash', 'a/b'],
      ['containing a control character', 'a\u0001b'],
      ['containing a C1 control character', 'a\u0085b'],
    ])('refuses a name %s', async (_label, name) => {
      await expectViolation(folder({ name }), '23514', 'drive_folders_name_check');
    });

    it('accepts a name of 255 characters, accents included', async () => {
      await folder({ name: 'é'.repeat(255) });
    });
  });

  describe('mail_subscriptions', () => {
    const subscription = (values: Partial<typeof mailSubscriptions.$inferInsert> = {}) =>
      handle.db.insert(mailSubscriptions).values({
        organizationId: acme,
        plan: 'core',
        seats: 10,
        billingCycle: 'monthly',
        status: 'active',
        currentPeriodStart: new Date('2026-03-01T00:00:00Z'),
        currentPeriodEnd: new Date('2026-04-01T00:00:00Z'),
        ...values,
      });

    it('allows one subscription per organization', async () => {
      await subscription();
      await expectViolation(subscription(), '23505', 'mail_subscriptions_organization_id_unique');
    });

    it.each([
      [
        'plan',
        sql`insert into mail_subscriptions (organization_id, plan, seats, billing_cycle, status, current_period_start, current_period_end) values (${acme}, 'platinum', 1, 'monthly', 'active', now(), now() + interval '1 month')`,
        'mail_subscriptions_plan_check',
      ],
      [
        'billing cycle',
        sql`insert into mail_subscriptions (organization_id, plan, seats, billing_cycle, status, current_period_start, current_period_end) values (${acme}, 'core', 1, 'weekly', 'active', now(), now() + interval '1 month')`,
        'mail_subscriptions_billing_cycle_check',
      ],
      [
        'status',
        sql`insert into mail_subscriptions (organization_id, plan, seats, billing_cycle, status, current_period_start, current_period_end) values (${acme}, 'core', 1, 'monthly', 'paused', now(), now() + interval '1 month')`,
        'mail_subscriptions_status_check',
      ],
    ])('refuses an unknown %s', async (_label, statement, constraint) => {
      await expectViolation(handle.db.execute(statement), '23514', constraint);
    });

    it('refuses zero seats and a period that ends before it starts', async () => {
      await expectViolation(subscription({ seats: 0 }), '23514', 'mail_subscriptions_seats_check');
      await expectViolation(
        subscription({ currentPeriodEnd: new Date('2026-02-01T00:00:00Z') }),
        '23514',
        'mail_subscriptions_period_check',
      );
    });
  });

  describe('idempotency_records', () => {
    const record = (values: Partial<typeof idempotencyRecords.$inferInsert> = {}) =>
      handle.db.insert(idempotencyRecords).values({
        scope: 'api_key:1',
        key: 'k',
        fingerprint: 'POST /v1/x abc',
        status: 'in_progress',
        lockedAt: new Date('2026-03-02T09:00:00Z'),
        expiresAt: new Date('2026-03-03T09:00:00Z'),
        ...values,
      });

    it('keeps one record per scope and key', async () => {
      await record();
      await record({ scope: 'api_key:2' });
      await expectViolation(record(), '23505', 'idempotency_records_scope_key_pk');
    });

    it('stores only successful answers', async () => {
      await expectViolation(
        record({ status: 'completed', responseStatus: 409 }),
        '23514',
        'idempotency_records_response_check',
      );
      await expectViolation(record({ status: 'completed' }), '23514', 'idempotency_records_response_check');
      await record({ status: 'completed', responseStatus: 201, responseBody: { success: true } });
    });

    it('refuses an unknown status and a key longer than 255 characters', async () => {
      await expectViolation(
        handle.db.execute(sql`insert into idempotency_records (scope, key, fingerprint, status, locked_at, expires_at)
          values ('s', 'k', 'f', 'failed', now(), now())`),
        '23514',
        'idempotency_records_status_check',
      );
      await expectViolation(record({ key: 'k'.repeat(256) }), '23514', 'idempotency_records_key_check');
    });
  });
});
