import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '../client.js';
import { migrationsFolder } from '../migrate.js';
import { createTestDatabase } from '../testing.js';

// Migration 0029 on tries recorded before it (docs/decisions.md#delivery-log): each gets the outcome it had, and the
// first delivery. Runs on PGlite, and on PostgreSQL with DATABASE_URL.

describe('0029 on tries recorded before it', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('marks 2xx delivered, the last try of a failed event failed, and every other try retrying', async () => {
    await handle.db.execute(sql`drop schema public cascade`);
    await handle.db.execute(sql`create schema public`);
    const migrations = readMigrationFiles({ migrationsFolder });
    const index = migrations.findIndex((migration) => migration.sql.some((text) => /"response_excerpt"/.test(text)));
    expect(index).toBeGreaterThan(0);
    const apply = async (statements: string[]) => {
      for (const statement of statements) await handle.db.execute(sql.raw(statement));
    };
    for (const migration of migrations.slice(0, index)) await apply(migration.sql);

    await handle.db.execute(sql`
      with organization as (insert into organizations (name) values ('Before') returning id),
      events (id, status) as (
        values ('msg_delivered', 'delivered'), ('msg_failed', 'failed'), ('msg_pending', 'pending')
      ),
      inserted as (
        insert into webhook_events (id, organization_id, environment, type, payload, status, attempts, next_attempt_at)
        select events.id, organization.id, 'test', 'verification_session.verified', '{}'::jsonb, events.status, 2, now()
          from events, organization
        returning id
      )
      insert into webhook_delivery_attempts (event_id, attempt, url, response_status, error, duration_ms)
      select tries.event_id, tries.attempt, 'https://hooks.example.com', tries.status, null, 5
        from (values ('msg_delivered', 1, 500), ('msg_delivered', 2, 204), ('msg_failed', 1, 503),
                     ('msg_failed', 2, 410), ('msg_pending', 1, null::integer), ('msg_pending', 2, 500))
             as tries (event_id, attempt, status)
       where exists (select 1 from inserted)`);
    for (const migration of migrations.slice(index)) await apply(migration.sql);

    const tries = await queryRows<{ event: string; attempt: number; outcome: string; delivery: number }>(
      handle.db,
      sql`select event_id as event, attempt, outcome, delivery from webhook_delivery_attempts order by event_id, attempt`,
    );
    expect(tries).toEqual([
      { event: 'msg_delivered', attempt: 1, outcome: 'retrying', delivery: 1 },
      { event: 'msg_delivered', attempt: 2, outcome: 'delivered', delivery: 1 },
      { event: 'msg_failed', attempt: 1, outcome: 'retrying', delivery: 1 },
      { event: 'msg_failed', attempt: 2, outcome: 'failed', delivery: 1 },
      { event: 'msg_pending', attempt: 1, outcome: 'retrying', delivery: 1 },
      { event: 'msg_pending', attempt: 2, outcome: 'retrying', delivery: 1 },
    ]);
    const [event] = await queryRows<{ deliveries: number }>(
      handle.db,
      sql`select deliveries from webhook_events where id = 'msg_failed'`,
    );
    expect(event?.deliveries).toBe(1);
  });
});
