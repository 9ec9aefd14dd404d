import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import type { DatabaseHandle } from './client.js';
import { organizations, wallets } from './schema/index.js';
import { createStatementLog, statementSummary, statementSummaryMarkingPrepared } from './statement-log.js';
import { createTestDatabase } from './testing.js';

describe('statementSummary', () => {
  const query = (text: string) => statementSummary({ kind: 'query', text, params: [] });

  it('names transaction commands, reads, writes in order, row locks and advisory locks', () => {
    expect(statementSummary({ kind: 'begin' })).toBe('BEGIN');
    expect(statementSummary({ kind: 'rollback to savepoint' })).toBe('ROLLBACK TO SAVEPOINT');
    expect(query('select "id" from "api_keys" where "secret_hash" = $1')).toBe('select api_keys');
    expect(query('insert into "a" ("x") values ($1) on conflict do update set "x" = 1')).toBe('insert a');
    expect(
      query(`with locked as (select * from "wallets" where id = $1 and kind in ($2, $3) for no key update),
        m as (insert into ledger_entries select 1 from locked returning 1)
        update wallets set x = 1 from m returning 1`),
    ).toBe('lock wallets, insert ledger_entries, update wallets');
    expect(query('select id from "sessions" where due order by at limit $1 for update skip locked')).toBe(
      'lock sessions',
    );
    expect(query('select pg_advisory_xact_lock($1), (select plan from subscriptions) as plan')).toBe('advisory lock');
  });
});

describe.skipIf(missing(postgresServer))('a statement log (PostgreSQL)', () => {
  const log = createStatementLog();
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase({ statementLog: log });
  });
  afterAll(async () => {
    await handle.close();
  });

  it('records each statement in order, with BEGIN and COMMIT or ROLLBACK, savepoints included', async () => {
    log.take();
    const [organization] = await handle.db.insert(organizations).values({ name: 'Logged' }).returning();
    await handle.db.transaction(async (tx) => {
      await tx.insert(wallets).values({ organizationId: organization!.id, environment: 'live' });
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`select 1`);
          throw new Error('undo the savepoint');
        })
        .catch(() => undefined);
      await tx.select().from(wallets).where(eq(wallets.organizationId, organization!.id)).for('update');
    });
    await handle.db
      .transaction(async () => {
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(log.take().map(statementSummary)).toEqual([
      'insert organizations',
      'BEGIN',
      'insert wallets',
      'SAVEPOINT',
      'select 1',
      'ROLLBACK TO SAVEPOINT',
      'lock wallets',
      'COMMIT',
      'BEGIN',
      'ROLLBACK',
    ]);
    expect(log.statements).toEqual([]);
  });

  it('tells a named prepared statement from one parsed where it is sent', async () => {
    log.take();
    const prepared = handle.db
      .select()
      .from(wallets)
      .where(eq(wallets.id, sql.placeholder('id')))
      .prepare('logged_wallet');
    const id = '00000000-0000-4000-8000-000000000000';
    await prepared.execute({ id });
    await handle.db.select().from(wallets).where(eq(wallets.id, id));
    expect(log.take().map(statementSummaryMarkingPrepared)).toEqual(['select wallets (prepared)', 'select wallets']);
  });

  it('needs PostgreSQL: a PGlite test database cannot log', async () => {
    const url = process.env.DATABASE_URL;
    delete process.env.DATABASE_URL;
    try {
      await expect(createTestDatabase({ statementLog: createStatementLog() })).rejects.toThrow(/DATABASE_URL/);
    } finally {
      process.env.DATABASE_URL = url;
    }
  });
});
