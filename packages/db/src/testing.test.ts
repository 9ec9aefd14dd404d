import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from './client.js';
import { users } from './schema/index.js';
import { createTestDatabase } from './testing.js';

async function currentDatabase(handle: DatabaseHandle): Promise<string> {
  const [row] = await queryRows<{ name: string }>(handle.db, sql`select current_database() as name`);
  return row?.name ?? '';
}

async function databaseExists(name: string): Promise<boolean> {
  const admin = postgres(process.env.DATABASE_URL ?? '', { max: 1, onnotice: () => {} });
  try {
    const rows = await admin`select 1 from pg_database where datname = ${name}`;
    return rows.length > 0;
  } finally {
    await admin.end();
  }
}

describe('createTestDatabase', () => {
  const open: DatabaseHandle[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((handle) => handle.close()));
  });

  it('uses PostgreSQL when DATABASE_URL is set and PGlite otherwise', async () => {
    const handle = await createTestDatabase();
    open.push(handle);
    expect(handle.driver).toBe(process.env.DATABASE_URL ? 'postgres' : 'pglite');
    await expect(handle.ping()).resolves.toBeUndefined();
  });

  it('gives each caller its own database', async () => {
    const [first, second] = await Promise.all([createTestDatabase(), createTestDatabase()]);
    open.push(first, second);

    await first.db.insert(users).values({ id: 'user_only_here', email: 'only@example.com' });

    expect(await first.db.select().from(users)).toHaveLength(1);
    expect(await second.db.select().from(users)).toHaveLength(0);
    if (first.driver === 'postgres') expect(await currentDatabase(first)).not.toBe(await currentDatabase(second));
  });

  it('close() releases the database, and on PostgreSQL drops it', async () => {
    const handle = await createTestDatabase();
    const name = await currentDatabase(handle);
    if (handle.driver === 'postgres') expect(await databaseExists(name)).toBe(true);

    await handle.close();
    await handle.close();

    await expect(handle.ping()).rejects.toThrow();
    if (handle.driver === 'postgres') expect(await databaseExists(name)).toBe(false);
  });
});
