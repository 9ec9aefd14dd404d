import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDatabase, redactConnectionUrl } from './client.js';
import { countAppliedMigrations, migrateDatabase } from './migrate.js';
import { organizations } from './schema/index.js';

describe('createDatabase without a URL (PGlite)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'platform-db-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('keeps data in memory by default: a new instance starts empty', async () => {
    const first = await createDatabase();
    expect(first.driver).toBe('pglite');
    await migrateDatabase(first);
    await first.db.insert(organizations).values({ name: 'In memory' });
    expect(await first.db.select().from(organizations)).toHaveLength(1);
    await first.close();

    const second = await createDatabase();
    expect(await countAppliedMigrations(second)).toBe(0);
    await migrateDatabase(second);
    expect(await second.db.select().from(organizations)).toHaveLength(0);
    await second.close();
  });

  it('persists data in dataDir across restarts', async () => {
    const first = await createDatabase({ dataDir });
    await migrateDatabase(first);
    await first.db.insert(organizations).values({ name: 'Persisted' });
    await first.close();

    const reopened = await createDatabase({ dataDir });
    await expect(reopened.ping()).resolves.toBeUndefined();
    expect((await reopened.db.select().from(organizations)).map((row) => row.name)).toEqual(['Persisted']);
    await reopened.close();
  });
});

describe('redactConnectionUrl', () => {
  it('masks the password and keeps the rest, and never prints what it cannot parse', () => {
    expect(redactConnectionUrl('postgres://app:s3cret@db.internal:5432/platform')).toBe(
      'postgres://app:***@db.internal:5432/platform',
    );
    expect(redactConnectionUrl('postgres://postgres@127.0.0.1:5432/postgres')).toBe(
      'postgres://postgres@127.0.0.1:5432/postgres',
    );
    expect(redactConnectionUrl('not a url with s3cret')).toBe('(unparseable DATABASE_URL)');
  });
});
