import { sql } from 'drizzle-orm';
import { type Database, queryRows } from './client.js';

/**
 * An md5 of every row of every table in the public schema, by table name: two equal snapshots mean no row
 * was inserted, changed or deleted in between. Reads each table in full, so keep it to test databases.
 */
export async function tableChecksums(db: Database): Promise<Record<string, string>> {
  const tables = await queryRows<{ name: string }>(
    db,
    sql`select table_name as name from information_schema.tables
        where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`,
  );
  if (tables.length === 0) return {};
  const perTable = tables.map(
    ({ name }) =>
      sql`select ${name} as name, coalesce(md5(string_agg(t::text, ',' order by t::text)), '') as checksum from ${sql.identifier(name)} t`,
  );
  const rows = await queryRows<{ name: string; checksum: string }>(db, sql.join(perTable, sql` union all `));
  return Object.fromEntries(rows.map((row) => [row.name, row.checksum]));
}
