import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from './client.js';
import { type RidingStatement, reportRiders, riderCounts, riderCtes, sendRiders } from './riding-statements.js';
import { tableRowOf } from './rows.js';
import { organizations, users } from './schema/index.js';
import { createTestDatabase } from './testing.js';

describe('riding statements', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });

  const insertUser = (id: string, onlyIf = sql`true`) =>
    sql`insert into users (id, email) select ${id}::text, ${`${id}@example.com`}::text where ${onlyIf} returning id`;

  it('sends several in one statement and tells each how many rows it returned', async () => {
    const returned: number[] = [];
    const riders: RidingStatement[] = [
      { statement: insertUser('rider_a'), returned: (rows) => returned.push(rows) },
      { statement: insertUser('rider_b', sql`false`), returned: (rows) => returned.push(rows) },
    ];
    await sendRiders(handle.db, riders);
    expect(returned).toEqual([1, 0]);
    const ids = await handle.db.select({ id: users.id }).from(users);
    expect(ids.map(({ id }) => id)).toContain('rider_a');
    expect(ids.map(({ id }) => id)).not.toContain('rider_b');
  });

  it('rides in a carrying statement, written only when its condition holds there', async () => {
    const counts: number[] = [];
    const riders: RidingStatement[] = [
      { statement: insertUser('rider_c', sql`exists (select 1 from made)`), returned: (rows) => counts.push(rows) },
    ];
    const carry = (name: string | null) =>
      queryRows(
        handle.db,
        sql`with made as (insert into organizations (name) select ${name}::text where ${name}::text is not null
          returning *)${riderCtes(riders)}
        select (select count(*) from made)::int as made${riderCounts(riders)}`,
      );
    reportRiders(riders, (await carry(null))[0]);
    reportRiders(riders, (await carry('Carrier'))[0]);
    expect(counts).toEqual([0, 1]);
  });

  it('maps a raw row to the row drizzle would return', async () => {
    const [raw] = await queryRows(handle.db, sql`insert into organizations (name) values ('Mapped') returning *`);
    const mapped = tableRowOf(organizations, raw!);
    expect(mapped.name).toBe('Mapped');
    expect(mapped.createdAt).toBeInstanceOf(Date);
    const [json] = await queryRows(
      handle.db,
      sql`select to_jsonb(o) as row from organizations o where name = 'Mapped'`,
    );
    expect(tableRowOf(organizations, json!['row'] as Record<string, unknown>)).toEqual(mapped);
  });
});
