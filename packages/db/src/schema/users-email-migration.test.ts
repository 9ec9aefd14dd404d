import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '../client.js';
import { databaseErrorOf } from '../database-error.js';
import { countAppliedMigrations, migrateDatabase, migrationsFolder } from '../migrate.js';
import { createTestDatabase } from '../testing.js';

// One account per email address, whatever its case (docs/decisions.md#one-account-per-email), on a database written
// before it: profiles sharing an address in different cases stop the migration, which names them and changes nothing;
// without them the address becomes unique ignoring case. Through migrateDatabase itself, as a deployment runs it, on
// PGlite, and on PostgreSQL with DATABASE_URL.

const REPORT = '0025_report_email_collisions';

/**
 * Empties the database and applies the committed migrations before the collision report, recording them as drizzle's
 * migrator does, so that migrateDatabase then applies the report and everything after it.
 */
async function migrateToBeforeReport(handle: DatabaseHandle) {
  await handle.db.execute(sql`drop schema public cascade`);
  await handle.db.execute(sql`create schema public`);
  await handle.db.execute(sql`drop schema drizzle cascade`);
  const migrations = readMigrationFiles({ migrationsFolder });
  const journal = JSON.parse(readFileSync(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: Array<{ tag: string }>;
  };
  const index = journal.entries.findIndex((entry) => entry.tag === REPORT);
  expect(index).toBeGreaterThan(0);
  for (const migration of migrations.slice(0, index)) {
    for (const statement of migration.sql) await handle.db.execute(sql.raw(statement));
  }
  const last = migrations[index - 1];
  await handle.db.execute(sql`create schema drizzle`);
  await handle.db.execute(
    sql`create table drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
  );
  await handle.db.execute(
    sql`insert into drizzle.__drizzle_migrations (hash, created_at) values (${last?.hash}, ${last?.folderMillis})`,
  );
  // What migrateDatabase then records: the one row above and each migration from the report on.
  return { afterwards: 1 + migrations.length - index };
}

/** The message of the error that started it: the migrators wrap the server's error. */
function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current instanceof Error ? current.message : String(current);
}

const insertUser = (handle: DatabaseHandle, id: string, email: string) =>
  handle.db.execute(sql`insert into users (id, email) values (${id}, ${email})`);

async function columnExists(handle: DatabaseHandle, table: string, column: string): Promise<boolean> {
  const rows = await queryRows<{ found: boolean }>(
    handle.db,
    sql`select exists (select 1 from information_schema.columns
      where table_schema = 'public' and table_name = ${table} and column_name = ${column}) as found`,
  );
  return rows[0]?.found === true;
}

describe('one account per email address, migrating a database that has profiles', () => {
  let handle: DatabaseHandle;
  beforeEach(async () => {
    handle = await createTestDatabase();
  });
  afterEach(async () => {
    await handle.close();
  });

  it('stops at profiles sharing an address in different cases, names their ids and no address, and applies nothing', async () => {
    const { afterwards } = await migrateToBeforeReport(handle);
    await insertUser(handle, 'user_b', 'CEO_A9BD0E@acme.test');
    await insertUser(handle, 'user_a', 'ceo_a9bd0e@acme.test');
    await insertUser(handle, 'user_c', 'Ceo_A9bd0e@Acme.Test');
    await insertUser(handle, 'user_x', 'X@Probe.Test');
    await insertUser(handle, 'user_y', 'x@probe.test');
    await insertUser(handle, 'user_alone', 'alone@probe.test');

    const failure = await migrateDatabase(handle).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeDefined();
    const message = innermostMessage(failure);
    expect(message).toBe(
      'Email addresses must be unique whatever their case; 2 group(s) of profiles share one, by user id: ' +
        '(user_a, user_b, user_c); (user_x, user_y)',
    );
    expect(message).not.toMatch(/@/);

    // Nothing of it or after it: the profiles as they were, no new column, nothing recorded as applied.
    expect(await countAppliedMigrations(handle)).toBe(1);
    expect(await columnExists(handle, 'verification_sessions', 'last_error_code')).toBe(false);
    const users = await queryRows<{ id: string; email: string }>(
      handle.db,
      sql`select id, email from users order by id`,
    );
    expect(users).toEqual([
      { id: 'user_a', email: 'ceo_a9bd0e@acme.test' },
      { id: 'user_alone', email: 'alone@probe.test' },
      { id: 'user_b', email: 'CEO_A9BD0E@acme.test' },
      { id: 'user_c', email: 'Ceo_A9bd0e@Acme.Test' },
      { id: 'user_x', email: 'X@Probe.Test' },
      { id: 'user_y', email: 'x@probe.test' },
    ]);

    // Once an operator has given the others their own addresses, the same migration goes through.
    await handle.db.execute(sql`update users set email = 'b@acme.test' where id = 'user_b'`);
    await handle.db.execute(sql`delete from users where id in ('user_c', 'user_y')`);
    await migrateDatabase(handle);
    expect(await countAppliedMigrations(handle)).toBe(afterwards);
    expect(await columnExists(handle, 'verification_sessions', 'last_error_code')).toBe(true);
  });

  it('keeps each address as written and refuses another in a different case afterwards', async () => {
    await migrateToBeforeReport(handle);
    await insertUser(handle, 'user_x', 'X@Probe.Test');
    await migrateDatabase(handle);

    const refused = await insertUser(handle, 'user_y', 'x@PROBE.test').then(
      () => undefined,
      (error: unknown) => databaseErrorOf(error),
    );
    expect(refused).toMatchObject({ code: '23505', constraint: 'users_email_lower_idx' });
    const users = await queryRows<{ id: string; email: string }>(handle.db, sql`select id, email from users`);
    expect(users).toEqual([{ id: 'user_x', email: 'X@Probe.Test' }]);
  });
});
