import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './client.js';
import { prepareWithRowsMapper } from './prepared-queries.js';
import { notifications, users } from './schema/index.js';
import { createTestDatabase } from './testing.js';

// prepareWithRowsMapper calls drizzle's internal session.prepareQuery (see its comment). An upgrade of drizzle-orm
// must look at that method again: src/pg-core/session.ts, prepareQuery(query, fields, name, isResponseInArrayMode,
// customResultMapper) on both drivers' sessions (postgres-js and pglite). Then update this version.
const DRIZZLE_VERSION_CHECKED = '0.45.4';

describe('the drizzle-orm internals prepareWithRowsMapper relies on', () => {
  it(`are those of drizzle-orm ${DRIZZLE_VERSION_CHECKED}`, () => {
    // drizzle-orm's exports do not include its package.json: read it beside the resolved entry point.
    const entry = createRequire(import.meta.url).resolve('drizzle-orm');
    const { version: installed } = JSON.parse(readFileSync(join(entry, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(
      installed,
      `drizzle-orm is now ${installed}: check session.prepareQuery's signature before changing DRIZZLE_VERSION_CHECKED`,
    ).toBe(DRIZZLE_VERSION_CHECKED);
  });
});

// Runs on PGlite by default and on PostgreSQL (postgres.js) when DATABASE_URL is set: the two drivers must give
// the mapper the same cells.
describe('prepareWithRowsMapper', () => {
  let database: DatabaseHandle;

  beforeAll(async () => {
    database = await createTestDatabase();
    await database.db.insert(users).values({ id: 'user_rows', email: 'rows@example.com' });
    await database.db.insert(notifications).values([
      {
        userId: 'user_rows',
        title: 'First',
        message: 'one',
        type: 'info',
        createdAt: new Date('2026-01-02T03:04:05.678Z'),
      },
      { userId: 'user_rows', title: 'Second', message: 'two', type: 'error', actionUrl: '/x', readAt: new Date() },
    ]);
  });
  afterAll(async () => {
    await database.close();
  });

  it('hands the mapper the rows as cells in select order, parsed by the driver, with placeholders filled per call', async () => {
    const { db } = database;
    const query = prepareWithRowsMapper(
      db,
      'test_rows_of_user',
      db
        .select({
          title: notifications.title,
          isRead: sql<boolean>`${notifications.readAt} is not null`,
          actionUrl: notifications.actionUrl,
          createdAt: sql<string>`to_char(${notifications.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
          count: sql<number>`(count(*) over ())::int`,
        })
        .from(notifications)
        .where(eq(notifications.userId, sql.placeholder('userId')))
        .orderBy(notifications.title),
      (rows) => rows,
    );

    const rows = await query.execute({ userId: 'user_rows' });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual(['First', false, null, '2026-01-02T03:04:05.678Z', 2]);
    expect(rows[1]!.slice(0, 3)).toEqual(['Second', true, '/x']);
    // The same prepared statement again, with another value for the placeholder.
    expect(await query.execute({ userId: 'nobody' })).toEqual([]);
  });
});
