import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias, integer, PgDialect, pgEnum, pgSchema, pgTable, text } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/postgres-js';
import { describe, expect, it } from 'vitest';
import { idempotencyRecords, verificationSessions, wallets } from './schema/index.js';
import { sqlTextOf } from './sql-text.js';

const dialect = new PgDialect();
// A database object only to build statements with drizzle's query builders; nothing is sent.
const db = drizzle.mock();

const otherSchema = pgSchema('elsewhere');
const schemaTable = otherSchema.table('things', { id: text('id') });
const keyNamed = pgTable('key_named', { someKey: integer() });
const aliasedWallets = alias(wallets, 'w');
const mood = pgEnum('mood', ['calm', 'busy']);

const statements: Record<string, SQL> = {
  'text only': sql`select 1`,
  'plain values of every kind': sql`select ${'text'}::text, ${42}::int, ${4.5}, ${true}, ${null}, ${10n}::bigint, ${new Date(0)}::timestamptz`,
  'an object and an array': sql`select ${{ a: 1, b: 'x' }}::jsonb, ${[1, 2, 3]}`,
  'nested templates and raw text': sql`with a as (${sql`select ${1} as n`}) select n from a where n = ${sql.raw('1')} and ${sql`${2}`} > 0`,
  'joined parts': sql`select ${sql.join([sql`${1}`, sql`${'two'}`, sql.raw('3')], sql`, `)}`,
  'tables and columns': sql`update ${wallets} set available_balance = available_balance - ${5}::bigint where ${wallets.organizationId} = ${'org'}::uuid returning ${wallets.id}`,
  'a table in another schema, an alias, a column named by its key': sql`select ${schemaTable.id}, ${aliasedWallets.id}, ${keyNamed.someKey} from ${schemaTable}, ${aliasedWallets}, ${keyNamed}`,
  'an identifier': sql`select 1 as ${sql.identifier('a "quoted" name')}`,
  'an enum': sql`select ${'calm'}::${mood}`,
  'encoded values (conditions)': and(
    eq(verificationSessions.organizationId, 'org'),
    eq(verificationSessions.createdAt, new Date(1_000)),
    inArray(verificationSessions.status, ['pending', 'processing']),
  ) as SQL,
  'a placeholder': sql`select ${sql.placeholder('value')}`,
  'inlined values': sql`select ${"it's"} ${sql`${'inline'}`.inlineParams()}`,
  'a whole statement inlined': sql`select ${'x'}`.inlineParams(),
  'a query builder': sql`with done as (${db
    .update(idempotencyRecords)
    .set({ status: 'completed', responseStatus: 201, responseBody: { ok: true } })
    .where(and(eq(idempotencyRecords.scope, 's'), eq(idempotencyRecords.key, 'k')))
    .returning({
      key: idempotencyRecords.key,
    })}) select count(*) from done where ${3} > ${sql`${db.select({ n: sql`1` }).from(wallets).where(eq(wallets.id, 'w'))}`}`,
  'undefined parts': sql`select 1${undefined}`,
};

describe('sqlTextOf', () => {
  it.each(Object.entries(statements))('writes %s as drizzle does', (_, statement) => {
    const expected = dialect.sqlToQuery(statement);
    const actual = sqlTextOf(statement);
    expect(actual.sql).toBe(expected.sql);
    expect(actual.params).toEqual(expected.params);
  });

  it('numbers the parameters of parts drizzle writes after those already taken', () => {
    const { sql: text, params } = sqlTextOf(
      sql`select ${'a'}, ${[7, 8]}, ${eq(wallets.id, 'w')}, ${{ json: true }}, ${'z'}`,
    );
    expect(text).toBe('select $1, ($2, $3), "wallets"."id" = $4, $5, $6');
    expect(params).toEqual(['a', 7, 8, 'w', { json: true }, 'z']);
  });
});
