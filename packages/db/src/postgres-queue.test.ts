import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

// postgres.js keeps its pooled connections in queues (`Queue` in its src/queue.js). Under steady load every query
// is pipelined on a busy connection taken from the front of the busy queue and put back at its end, so that queue
// never empties. Unpatched, what it had shifted out stayed in its array, one slot per query for as long as the load
// lasted, and each move of a connection searched the array from its start: a pool's CPU per query grew from 23 to
// 105 microseconds within 12 s of `select 1` at 50 concurrent callers on 10 connections. Patched in
// patches/postgres@3.4.9.patch (docs/benchmarks.md#the-pools-queues-27-nov).

type Queue<T> = { length: number; push(x: T): T; shift(): T; remove(x: T): T | null };

type MakeQueue = <T>(initial?: T[]) => Queue<T>;

// The package's CommonJS entry is <package>/cjs/src/index.js; its ES modules (what the services load) are in src/.
const commonJsEntry = createRequire(import.meta.url).resolve('postgres');
const packageRoot = path.resolve(path.dirname(commonJsEntry), '../..');
const builds: Record<string, MakeQueue> = {
  'ES module': ((await import(pathToFileURL(path.join(packageRoot, 'src/queue.js')).href)) as { default: MakeQueue })
    .default,
  CommonJS: createRequire(commonJsEntry)(path.join(packageRoot, 'cjs/src/queue.js')) as MakeQueue,
};

/** An array that records the most elements any search of it could walk. */
class WatchedArray<T> extends Array<T> {
  static longestSearch = 0;
  override indexOf(item: T, fromIndex = 0): number {
    WatchedArray.longestSearch = Math.max(WatchedArray.longestSearch, this.length - fromIndex);
    return super.indexOf(item, fromIndex);
  }
}

describe.each(Object.entries(builds))("postgres.js's pool queue (patched), %s build", (_, makeQueue) => {
  it('keeps its array and its searches as short as the queue while it never empties', () => {
    const connections = Array.from({ length: 10 }, (_, index) => ({ index }));
    // slice() of a WatchedArray is one too, so the queue's own array is watched.
    const busy = makeQueue(WatchedArray.from(connections));
    WatchedArray.longestSearch = 0;
    for (let query = 0; query < 10_000; query += 1) {
      // What the pool does for each query pipelined while every connection is busy: `go(busy.shift(), query)`,
      // then `move(c, busy)`, which removes the connection from the queue it was in and pushes it.
      const connection = busy.shift();
      busy.remove(connection);
      busy.push(connection);
    }
    expect(busy.length).toBe(10);
    expect(WatchedArray.longestSearch).toBeLessThanOrEqual(10);
  });

  it('still removes a connection from the middle and shifts in order', () => {
    const queue = makeQueue<string>();
    for (const name of ['a', 'b', 'c', 'd']) queue.push(name);
    expect(queue.shift()).toBe('a');
    expect(queue.remove('c')).toBe('c');
    expect(queue.remove('a')).toBeNull();
    expect([queue.shift(), queue.shift(), queue.length]).toEqual(['b', 'd', 0]);
  });
});
