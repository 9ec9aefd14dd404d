import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '../client.js';
import { migrationsFolder } from '../migrate.js';
import { createTestDatabase } from '../testing.js';

// Migration 0021 on subscriptions written before it: one already past_due counts as one failed renewal at the end of
// its period, so its retries keep a schedule (docs/decisions.md#renewal-retries); the others get none. Runs on PGlite,
// and on PostgreSQL with DATABASE_URL.

describe('0021 on subscriptions written before it', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('starts the retry schedule of a past_due subscription at its period end, and of no other', async () => {
    await handle.db.execute(sql`drop schema public cascade`);
    await handle.db.execute(sql`create schema public`);
    const migrations = readMigrationFiles({ migrationsFolder });
    const index = migrations.findIndex((migration) =>
      migration.sql.some((statement) => /"past_due_since"/.test(statement)),
    );
    expect(index).toBeGreaterThan(0);
    const apply = async (statements: string[]) => {
      for (const statement of statements) await handle.db.execute(sql.raw(statement));
    };
    for (const migration of migrations.slice(0, index)) await apply(migration.sql);

    await handle.db.execute(sql`
      with organization as (insert into organizations (name) values ('Before'), ('Other') returning id),
      numbered as (select id, row_number() over () as n from organization)
      insert into mail_subscriptions (organization_id, plan, seats, billing_cycle, status, current_period_start, current_period_end)
      select id, 'core', 5, 'monthly', case when n = 1 then 'past_due' else 'active' end,
             timestamptz '2026-01-01 00:00Z', timestamptz '2026-02-01 00:00Z'
      from numbered`);
    for (const migration of migrations.slice(index)) await apply(migration.sql);

    const rows = await queryRows<{ status: string; since: string | null; failures: number; cancel: boolean }>(
      handle.db,
      sql`select status, past_due_since::text as since, renewal_failures as failures, cancel_at_period_end as cancel
          from mail_subscriptions order by status`,
    );
    expect(
      rows.map((row) => [
        row.status,
        row.since === null ? null : new Date(row.since).toISOString(),
        row.failures,
        row.cancel,
      ]),
    ).toEqual([
      ['active', null, 0, false],
      ['past_due', '2026-02-01T00:00:00.000Z', 1, false],
    ]);
  });
});
