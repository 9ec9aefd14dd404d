import type postgres from 'postgres';

/** One statement an endpoint ran, as postgres.js received it, with the rows it answered. */
export interface QueryStep {
  kind: 'query';
  query: string;
  params: unknown[];
  /** The options drizzle passed (it turns named prepared statements off unless a query is named). */
  options: postgres.UnsafeQueryOptions;
  /** drizzle asked for rows as arrays (`.values()`) rather than objects. */
  arrayMode: boolean;
  /** The answer, each row as its column values in order. */
  rows: unknown[][];
}

/** A `sql.begin` (or savepoint) block and the statements run inside it. */
interface TransactionStep {
  kind: 'transaction';
  savepoint: boolean;
  steps: TraceStep[];
}

export type TraceStep = QueryStep | TransactionStep;

/** Statements in a trace, counting each transaction's BEGIN and COMMIT (or savepoint and release) as two. */
export function statementCount(steps: readonly TraceStep[]): number {
  return steps.reduce((count, step) => count + (step.kind === 'query' ? 1 : 2 + statementCount(step.steps)), 0);
}

type Sql = postgres.Sql;
type BlockCallback = (sql: Sql) => unknown;

/**
 * Wraps a postgres.js client so every `unsafe` statement (drizzle sends all its SQL that way) and every
 * transaction is appended to the sink that `sinkOf()` returns at the time of the call. Nested clients
 * (a transaction's) record into their own step.
 */
export function recordingClient(client: Sql, sinkOf: () => TraceStep[]): Sql {
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === 'unsafe') {
        return (query: string, params: unknown[] = [], options: postgres.UnsafeQueryOptions = {}) => {
          const step: QueryStep = { kind: 'query', query, params: [...params], options, arrayMode: false, rows: [] };
          sinkOf().push(step);
          const pending = target.unsafe(query, params as postgres.ParameterOrJSON<never>[], options);
          // postgres.js starts a query a microtask after its first `then`, so the caller's synchronous
          // `.values()` has been applied by then; observing the result here changes nothing about it.
          pending.then(
            (rows) => {
              step.arrayMode = (pending as unknown as { isRaw?: unknown }).isRaw === 'values';
              step.rows = (rows as unknown as unknown[]).map((row) =>
                Array.isArray(row) ? [...(row as unknown[])] : Object.values(row as Record<string, unknown>),
              );
            },
            () => undefined,
          );
          return pending;
        };
      }
      if (property === 'begin' || property === 'savepoint') {
        return (...args: unknown[]) => {
          const callback = args.pop() as BlockCallback;
          const step: TransactionStep = { kind: 'transaction', savepoint: property === 'savepoint', steps: [] };
          sinkOf().push(step);
          const inner = (sql: Sql) => callback(recordingClient(sql, () => step.steps));
          const open = Reflect.get(target, property) as (...a: unknown[]) => unknown;
          return open.call(target, ...args, inner);
        };
      }
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  }) as Sql;
}
