import { connectionUrlOf, type Database, type DatabaseHandle } from '@platform/db';
import { createTestDatabase } from '@platform/db/testing';
import { afterAll, beforeAll } from 'vitest';
import { hostAndPort } from './helpers.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** What a faults suite works with: its own database, and what it started, closed after the suite in reverse order. */
export interface FaultHarness {
  readonly db: Database;
  /** The database's connection URL, for the instances the suite starts. */
  readonly url: string;
  /** A TCP proxy in front of `serverUrl`, to take the server away from whatever connects through it. */
  proxyTo(serverUrl: string): Promise<TcpProxy>;
  /** Closes `close` after the suite, before the database. */
  closeAfterwards(close: () => Promise<void>): void;
}

/** Registers the suite's hooks: a fresh test database before it, everything started closed after it. */
export function useFaultHarness(): FaultHarness {
  let database: DatabaseHandle | undefined;
  let url: string | undefined;
  const toClose: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    url = connectionUrlOf(database.db);
    if (url === undefined) throw new Error('the test database has no connection URL');
  });
  afterAll(async () => {
    for (const close of toClose.reverse()) await close().catch(() => undefined);
    await database?.close();
  });

  const closeAfterwards = (close: () => Promise<void>) => {
    toClose.push(close);
  };
  return {
    get db() {
      if (database === undefined) throw new Error('the faults database is made before the suite runs');
      return database.db;
    },
    get url() {
      if (url === undefined) throw new Error('the faults database is made before the suite runs');
      return url;
    },
    async proxyTo(serverUrl) {
      const proxy = await startTcpProxy(hostAndPort(serverUrl));
      closeAfterwards(() => proxy.close());
      return proxy;
    },
    closeAfterwards,
  };
}
