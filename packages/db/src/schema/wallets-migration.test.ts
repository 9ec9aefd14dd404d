import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '../client.js';
import { migrationsFolder } from '../migrate.js';
import { createTestDatabase } from '../testing.js';

// Migration 0016 on a ledger written before it: the balances after each movement are filled in from the entries,
// and the ledger is append-only again afterwards. Runs on PGlite, and on PostgreSQL with DATABASE_URL.

/**
 * Replays the committed migrations on an emptied schema up to the first with a statement that `marks`, so a test
 * can add rows as they were before it; `rest` applies that migration and the ones after it.
 */
async function migrateUpTo(handle: DatabaseHandle, marks: (statement: string) => boolean) {
  await handle.db.execute(sql`drop schema public cascade`);
  await handle.db.execute(sql`create schema public`);
  const migrations = readMigrationFiles({ migrationsFolder });
  const index = migrations.findIndex((migration) => migration.sql.some(marks));
  expect(index).toBeGreaterThan(0);
  const apply = async (statements: string[]) => {
    for (const statement of statements) await handle.db.execute(sql.raw(statement));
  };
  for (const migration of migrations.slice(0, index)) await apply(migration.sql);
  return {
    rest: async () => {
      for (const migration of migrations.slice(index)) await apply(migration.sql);
    },
  };
}

describe('0016 on a ledger written before it', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('records the balances after each movement, per wallet in the order they happened, and stays append-only', async () => {
    const { rest } = await migrateUpTo(handle, (statement) => /"available_after"/.test(statement));
    // Two wallets; the live one's movements inserted out of order, so only created_at can order them.
    await handle.db.execute(sql`
      with organization as (insert into organizations (name) values ('Before') returning id),
      live as (insert into wallets (organization_id, environment, available_balance, held_balance)
               select id, 'live', 350, 100 from organization returning id),
      test as (insert into wallets (organization_id, environment, available_balance)
               select id, 'test', 30 from organization returning id),
      movements (name, wallet, kind, amount, at) as (
        select 'hold-b', (select id from live), 'hold', 100, timestamptz '2026-01-01 10:04'
        union all select 'top-up', (select id from live), 'top_up', 500, timestamptz '2026-01-01 10:00'
        union all select 'capture-a', (select id from live), 'capture', 50, timestamptz '2026-01-01 10:02'
        union all select 'hold-a', (select id from live), 'hold', 50, timestamptz '2026-01-01 10:01'
        union all select 'test-top-up', (select id from test), 'top_up', 30, timestamptz '2026-01-01 10:03'
      ),
      transactions as (
        insert into ledger_transactions (wallet_id, kind, amount, reference, created_at)
        select wallet, kind, amount, name, at from movements returning id, wallet_id, kind, amount
      )
      insert into ledger_entries (transaction_id, wallet_id, account, amount)
      select id, wallet_id, entry.account, entry.amount from transactions, lateral (values
        (case kind when 'top_up' then 'available' when 'hold' then 'available' else 'held' end,
         case kind when 'top_up' then amount else -amount end),
        (case kind when 'top_up' then 'funding' when 'hold' then 'held' else 'revenue' end,
         case kind when 'top_up' then -amount else amount end)
      ) as entry (account, amount)`);

    await rest();

    const rows = await queryRows<{ reference: string; available_after: string; held_after: string }>(
      handle.db,
      sql`select reference, available_after::text, held_after::text from ledger_transactions order by created_at`,
    );
    expect(rows).toEqual([
      { reference: 'top-up', available_after: '500', held_after: '0' },
      { reference: 'hold-a', available_after: '450', held_after: '50' },
      { reference: 'capture-a', available_after: '450', held_after: '0' },
      { reference: 'test-top-up', available_after: '30', held_after: '0' },
      { reference: 'hold-b', available_after: '350', held_after: '100' },
    ]);

    const refused = await handle.db
      .execute(sql`update ledger_transactions set available_after = 0`)
      .then(() => undefined)
      .catch((error: { code?: string; cause?: { code?: string } }) => (error.cause ?? error).code);
    expect(refused).toBe('23001');
    const notNull = await queryRows<{ column_name: string; is_nullable: string }>(
      handle.db,
      sql`select column_name, is_nullable from information_schema.columns
          where table_name = 'ledger_transactions' and column_name in ('available_after', 'held_after') order by 1`,
    );
    expect(notNull).toEqual([
      { column_name: 'available_after', is_nullable: 'NO' },
      { column_name: 'held_after', is_nullable: 'NO' },
    ]);
  });
});
