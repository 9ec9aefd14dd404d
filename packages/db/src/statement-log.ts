import type postgres from 'postgres';

// Counts what a piece of code sends to PostgreSQL, statement by statement, for the tests that pin the statements of
// a request (docs/decisions.md#statements-per-request). It wraps the postgres.js client, under drizzle, so it sees
// exactly what goes over the wire: every statement drizzle sends (all of them go through `unsafe`), every tagged
// template, and each transaction's BEGIN and COMMIT (or ROLLBACK), savepoints included.

/** One statement sent to the server, in the order sent. */
export type LoggedStatement =
  | {
      kind: 'query';
      text: string;
      params: readonly unknown[];
      /** Sent as a named prepared statement (parsed once per connection): drizzle's `.prepare()`, `queryRows`. */
      prepared?: boolean;
    }
  | { kind: 'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollback to savepoint' };

export interface StatementLog {
  /** What was sent since the log was created or last taken. */
  readonly statements: readonly LoggedStatement[];
  /** Empties the log and returns what it held. */
  take(): LoggedStatement[];
  /** Called by the recording client (`recordStatements`). */
  add(statement: LoggedStatement): void;
}

/** An empty log; give it to `createTestDatabase({ statementLog })`, then read it around the code under test. */
export function createStatementLog(): StatementLog {
  let statements: LoggedStatement[] = [];
  return {
    get statements() {
      return statements;
    },
    take() {
      const taken = statements;
      statements = [];
      return taken;
    },
    add(statement) {
      statements.push(statement);
    },
  };
}

type Sql = postgres.Sql;

/**
 * The client `client`, adding to `log` every statement it sends and every transaction it opens and ends (the
 * transaction's own client records into the same log).
 */
export function recordStatements(client: Sql, log: StatementLog): Sql {
  return new Proxy(client, {
    apply(target, thisArgument, args: unknown[]) {
      const [strings] = args;
      if (Array.isArray(strings) && 'raw' in strings) {
        log.add({
          kind: 'query',
          text: (strings as readonly string[]).reduce((text, part, index) => `${text}$${index}${part}`),
          params: args.slice(1),
        });
      }
      return Reflect.apply(target, thisArgument, args);
    },
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, params: unknown[] = [], options?: postgres.UnsafeQueryOptions) => {
          log.add({ kind: 'query', text: query, params: [...params], prepared: options?.prepare === true });
          return target.unsafe(query, params as postgres.ParameterOrJSON<never>[], options);
        };
      }
      if (property === 'begin' || property === 'savepoint') {
        const [opening, closing, undoing] =
          property === 'begin'
            ? (['begin', 'commit', 'rollback'] as const)
            : (['savepoint', 'release', 'rollback to savepoint'] as const);
        return (...args: unknown[]) => {
          const block = args.pop() as (sql: Sql) => unknown;
          log.add({ kind: opening });
          const inner = async (sql: Sql) => {
            try {
              const result = await block(recordStatements(sql, log));
              log.add({ kind: closing });
              return result;
            } catch (error) {
              log.add({ kind: undoing });
              throw error;
            }
          };
          const open = Reflect.get(target, property) as (...a: unknown[]) => unknown;
          return open.call(target, ...args, inner);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * A short name for each statement, to compare with what a request is meant to send: `BEGIN`, `COMMIT`, and for a
 * query its verb, the tables it writes (`insert verification_sessions`, `update wallets`; for a statement with
 * data-modifying CTEs, each table it writes, in order), `lock <table>` for a `FOR UPDATE` / `FOR NO KEY UPDATE` and
 * `advisory lock` for a `pg_advisory_lock`. A read names the table it reads first: `select api_keys`.
 */
export function statementSummary(statement: LoggedStatement): string {
  return statement.kind === 'query' ? querySummary(statement.text) : statement.kind.toUpperCase();
}

/** statementSummary, with ` (prepared)` after a statement sent as a named prepared statement: `select api_keys (prepared)`. */
export function statementSummaryMarkingPrepared(statement: LoggedStatement): string {
  const summary = statementSummary(statement);
  return statement.kind === 'query' && statement.prepared === true ? `${summary} (prepared)` : summary;
}

function querySummary(query: string): string {
  const text = query.replaceAll('"', '').replace(/\s+/g, ' ').trim();
  const parts: string[] = [];
  let lastRead: string | undefined;
  for (const match of text.matchAll(
    /\b(?:for (?:no key )?|do )update\b|\b(insert into|update|delete from) ([a-z_]+)|\bfrom ([a-z_]+)/gi,
  )) {
    const [whole, verb, written, read] = match;
    if (read !== undefined) lastRead = read;
    else if (written !== undefined) parts.push(`${verb?.split(' ')[0]?.toLowerCase()} ${written}`);
    else if (/^for/i.test(whole) && lastRead !== undefined) parts.push(`lock ${lastRead}`);
  }
  if (/\bpg_advisory(_xact)?_lock\b/i.test(text)) parts.unshift('advisory lock');
  if (parts.length > 0) return [...new Set(parts)].join(', ');
  const firstRead = /\bfrom ([a-z_]+)/i.exec(text);
  return firstRead === null ? text.slice(0, 60) : `select ${firstRead[1]}`;
}
