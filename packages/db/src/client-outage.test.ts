import net from 'node:net';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { createDatabase, type DatabaseHandle } from './client.js';

// While PostgreSQL cannot be reached, every query waiting for a connection fails with the error of the failed
// connection attempt, at once, instead of one query per attempt and pooled connection (postgres.js as
// patched in patches/postgres@3.4.9.patch). The server here is a stand-in that counts connection attempts and
// refuses each at startup, as PostgreSQL does while it starts up (57P03); it can also pass connections
// through to a real server, to show that the pool recovers by itself.

const POOL_SIZE = 2;

/** A PostgreSQL ErrorResponse message: FATAL with `code`. */
function fatal(code: string, message: string): Buffer {
  const fields = Buffer.concat([
    ...[`SFATAL`, `VFATAL`, `C${code}`, `M${message}`].map((field) => Buffer.from(`${field}\0`)),
    Buffer.from([0]),
  ]);
  const header = Buffer.alloc(5);
  header.write('E', 0);
  header.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([header, fields]);
}

interface StandIn {
  url: string;
  attempts(): number;
  /** From now on, connections go through to `target` instead of being refused. */
  passTo(target: { host: string; port: number }): void;
  close(): Promise<void>;
}

async function startStandIn(): Promise<StandIn> {
  let attempts = 0;
  let target: { host: string; port: number } | undefined;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    attempts += 1;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (target !== undefined) {
      const upstream = net.connect(target);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      return;
    }
    // The first bytes are the startup message: answer it as a server that is starting up.
    client.once('data', () => client.end(fatal('57P03', 'the database system is starting up')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  // The real server's user and database, when there is one, so that passing through can log in.
  const url = new URL(process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1/postgres');
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    attempts: () => attempts,
    passTo: (to) => (target = to),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The driver's error behind drizzle's wrapper. */
function causeOf(reason: unknown): { code?: string } {
  return ((reason as { cause?: unknown }).cause ?? reason) as { code?: string };
}

const toClose: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of toClose.splice(0).reverse()) await close();
});

async function standInAndPool(): Promise<{ standIn: StandIn; handle: DatabaseHandle }> {
  const standIn = await startStandIn();
  toClose.push(() => standIn.close());
  const handle = await createDatabase({ url: standIn.url, maxConnections: POOL_SIZE });
  toClose.push(() => handle.close());
  return { standIn, handle };
}

const waves = (handle: DatabaseHandle, count: number) =>
  Promise.allSettled(Array.from({ length: count }, (_, index) => handle.db.execute(sql`select ${index}::int as n`)));

describe('a pool whose connection attempts fail', () => {
  it('fails every waiting query with the error of the failed attempt, not one query per attempt', async () => {
    const { standIn, handle } = await standInAndPool();

    const results = await waves(handle, 40);

    expect(results.map((result) => result.status)).toEqual(Array(40).fill('rejected'));
    for (const result of results) expect(causeOf((result as PromiseRejectedResult).reason).code).toBe('57P03');
    // One attempt per pooled connection answered all 40; unpatched, each attempt failed a single query.
    expect(standIn.attempts()).toBeLessThanOrEqual(POOL_SIZE);
  });

  it('tries again for the queries that come later, each wave costing at most one attempt per connection', async () => {
    const { standIn, handle } = await standInAndPool();

    for (let wave = 1; wave <= 3; wave += 1) {
      const results = await waves(handle, 25);
      expect(results.every((result) => result.status === 'rejected')).toBe(true);
      expect(standIn.attempts()).toBeLessThanOrEqual(wave * POOL_SIZE);
    }
  });

  it.skipIf(missing(postgresServer))('recovers by itself once the server answers again', async () => {
    const { standIn, handle } = await standInAndPool();
    expect((await waves(handle, 10)).every((result) => result.status === 'rejected')).toBe(true);

    const real = new URL(process.env.DATABASE_URL!);
    standIn.passTo({ host: real.hostname, port: Number(real.port || 5432) });

    const results = await waves(handle, 20);
    expect(results.map((result) => result.status)).toEqual(Array(20).fill('fulfilled'));
  });
});
