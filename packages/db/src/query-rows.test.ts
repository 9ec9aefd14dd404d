import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { type DatabaseHandle, queryRows } from './client.js';
import { columnsOf } from './rows.js';
import { wallets } from './schema/index.js';
import { createTestDatabase } from './testing.js';

describe.skipIf(missing(postgresServer))('queryRows (PostgreSQL)', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });

  it('sends its statement as a named prepared statement, kept on the connection and used again', async () => {
    const marker = `query_rows_${Date.now()}`;
    const statement = (value: number) => sql`select ${value}::int as value, ${sql.raw(`'${marker}'`)} as marker`;
    const prepared = await handle.db.transaction(async (tx) => {
      expect(await queryRows(tx, statement(1))).toEqual([{ value: 1, marker }]);
      expect(await queryRows(tx, statement(2))).toEqual([{ value: 2, marker }]);
      // A transaction runs on one connection: its prepared statements are that connection's.
      return queryRows<{ statement: string }>(
        tx,
        sql`select statement from pg_prepared_statements where statement like ${`%${marker}%`}`,
      );
    });
    expect(prepared.map((row) => row.statement)).toEqual([expect.stringContaining(`'${marker}' as marker`)]);
  });

  it('columnsOf lists the columns the code knows, so a prepared answer keeps its shape', () => {
    const text = handle.db.execute(sql`select ${columnsOf(wallets, 'moved')} from ${wallets} as moved`).getQuery().sql;
    expect(text).toContain('moved."id", moved."organization_id", moved."environment"');
    expect(text).not.toContain('*');
  });
});
