import { Column, getTableName, Param, type Query, SQL, StringChunk, Table } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';

// The text and parameters of a statement built with drizzle's `sql` templates, as PostgreSQL's dialect would write
// them, in a fraction of the time (docs/decisions.md#statements-written-without-drizzles-walk). drizzle's
// own walk tests every part of a statement against a dozen classes by walking prototype chains and copies its
// settings for every nested template; on a create's one statement (about 60 values, 150 parts) that was 9% of the
// service's CPU. This walk takes the parts the repositories write (text, nested templates, plain values, tables
// and columns, encoded values) itself and hands anything else, one part at a time, to drizzle, numbering on from
// where it is. sql-text.test.ts checks it against drizzle's output for every kind of part.

const dialect = new PgDialect();

/** drizzle's settings for `toQuery`, as `PgDialect.sqlToQuery` passes them (no casing option is used). */
function drizzleConfig(paramStartIndex: { value: number }) {
  return {
    casing: (dialect as unknown as { casing: unknown }).casing,
    escapeName: dialect.escapeName,
    escapeParam: dialect.escapeParam,
    escapeString: dialect.escapeString,
    prepareTyping: dialect.prepareTyping,
    paramStartIndex,
  } as unknown as Parameters<SQL['toQuery']>[0];
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

// drizzle's own marks on a table (its `Table.Symbol` is internal): a schema of its own, and being an alias.
const tableSchema = Symbol.for('drizzle:Schema');
const tableIsAlias = Symbol.for('drizzle:IsAlias');

/** Whether drizzle inlines a template's values (`.inlineParams()`), a field its types keep private. */
const inlinesValues = (query: SQL) => (query as unknown as { shouldInlineParams: boolean }).shouldInlineParams;

/** The statement's text and parameters, the same as `new PgDialect().sqlToQuery(query)` gives. */
export function sqlTextOf(query: SQL): Query {
  if (inlinesValues(query)) return dialect.sqlToQuery(query);
  const params: unknown[] = [];
  const text = walk(query.queryChunks, params);
  return { sql: text, params };
}

function walk(chunks: readonly unknown[], params: unknown[]): string {
  let text = '';
  for (const chunk of chunks) {
    if (chunk instanceof StringChunk) {
      text += chunk.value.length === 1 ? chunk.value[0] : chunk.value.join('');
    } else if (chunk === null || isPrimitive(chunk)) {
      params.push(chunk);
      text += `$${params.length}`;
    } else if (chunk === undefined) {
      // drizzle writes nothing for a missing part.
    } else if (chunk instanceof SQL && !inlinesValues(chunk)) {
      text += walk(chunk.queryChunks, params);
    } else if (chunk instanceof Date) {
      params.push(chunk);
      text += `$${params.length}`;
    } else if (chunk instanceof Column && !chunk.keyAsName && isPlainTable(chunk.table)) {
      text += `${quoted(getTableName(chunk.table))}.${quoted(chunk.name)}`;
    } else if (chunk instanceof Table && isPlainTable(chunk)) {
      text += quoted(getTableName(chunk));
    } else if (chunk instanceof Param && isPlainValue(chunk.value)) {
      const value = chunk.value === null ? null : chunk.encoder.mapToDriverValue(chunk.value);
      if (value instanceof SQL || (typeof value === 'object' && value !== null && !(value instanceof Date))) {
        text += byDrizzle(chunk, params);
      } else {
        params.push(value);
        text += `$${params.length}`;
      }
    } else {
      text += byDrizzle(chunk, params);
    }
  }
  return text;
}

/** A value drizzle sends as a parameter whatever it is (a function may be an enum, which it names instead). */
function isPrimitive(value: unknown): boolean {
  const type = typeof value;
  return type !== 'object' && type !== 'undefined' && type !== 'function';
}

/** A table without a schema or an alias: drizzle writes its name alone. */
function isPlainTable(table: Table): boolean {
  const marks = table as unknown as Record<symbol, unknown>;
  return marks[tableSchema] === undefined && marks[tableIsAlias] !== true;
}

function isPlainValue(value: unknown): boolean {
  return value === null || typeof value !== 'object' || value instanceof Date;
}

/** One part written by drizzle itself, its parameters numbered after those already taken. */
function byDrizzle(chunk: unknown, params: unknown[]): string {
  const part = new SQL([chunk as SQL]).toQuery(drizzleConfig({ value: params.length }));
  params.push(...part.params);
  return part.sql;
}
