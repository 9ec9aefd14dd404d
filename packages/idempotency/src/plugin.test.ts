import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DatabaseHandle } from '@platform/db';
import { idempotencyRecords, organizations } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { conflict } from '@platform/errors';
import { createServer } from '@platform/http';
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { EVENTUALLY_TIMEOUT_MS } from '#test-timing';
import { type IdempotencyOptions, idempotency } from './plugin.js';

const SECOND = 1000;
const start = new Date('2026-03-02T09:00:00.000Z');

/** A hand-released gate, so a test can hold a request in its handler without sleeping. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('idempotency plugin', () => {
  let handle: DatabaseHandle;
  let clock: Date;
  let echoRuns: number;
  let failNext: 'conflict' | 'crash' | undefined;
  let jobFinished: boolean;
  let heldGates: Array<ReturnType<typeof gate>>;
  let replays: number;
  let logLines: string[];

  const OrganizationBody = Type.Object({
    name: Type.String({ minLength: 1 }),
    tags: Type.Optional(Type.Array(Type.String())),
  });
  // A response schema makes the replay byte-identical: it is serialized by the same schema.
  const Created = Type.Object({
    success: Type.Literal(true),
    data: Type.Object({
      id: Type.String(),
      name: Type.Optional(Type.String()),
      createdAt: Type.Optional(Type.String()),
    }),
  });

  const routes: FastifyPluginAsyncTypebox<{ db: DatabaseHandle['db'] }> = async (app, { db }) => {
    app.post(
      '/v1/organizations',
      { config: { idempotency: 'transaction' }, schema: { body: OrganizationBody, response: { 201: Created } } },
      async (request) =>
        request.idempotency.transaction(db, async (tx) => {
          const [organization] = await tx.insert(organizations).values({ name: request.body.name }).returning();
          if (failNext === 'conflict') throw conflict('An organization with this name is being reviewed');
          const data = { ...organization!, createdAt: organization!.createdAt.toISOString() };
          return {
            statusCode: 201,
            body: { success: true as const, data },
            headers: { location: `/v1/organizations/${organization!.id}` },
          };
        }),
    );
    app.post(
      '/v1/slow-organizations',
      { config: { idempotency: 'transaction' }, schema: { body: OrganizationBody, response: { 201: Created } } },
      async (request) => {
        await heldGates.shift()?.opened;
        return request.idempotency.transaction(db, async (tx) => {
          const [organization] = await tx.insert(organizations).values({ name: request.body.name }).returning();
          return { statusCode: 201, body: { success: true as const, data: { id: organization!.id } } };
        });
      },
    );
    // Adds the organization to a unit of work, which writes it with the stored answer at its commit.
    app.post(
      '/v1/unit-organizations',
      { config: { idempotency: 'transaction' }, schema: { body: OrganizationBody, response: { 201: Created } } },
      async (request) => {
        await heldGates.shift()?.opened;
        return request.idempotency.unitOfWork(db, async (work) => {
          const id = randomUUID();
          work.write(
            sql`insert into ${organizations} (id, name) values (${id}::uuid, ${request.body.name}) returning id`,
          );
          return { statusCode: 201, body: { success: true as const, data: { id } } };
        });
      },
    );
    app.post(
      '/v1/forgetful',
      { config: { idempotency: 'transaction' }, schema: { body: OrganizationBody } },
      async (request, reply) => {
        const [organization] = await db.insert(organizations).values({ name: request.body.name }).returning();
        return reply.code(201).send({ id: organization!.id });
      },
    );
    app.post('/v1/echo', { config: { idempotency: 'response' } }, async (request, reply) => {
      echoRuns += 1;
      if (failNext === 'crash') throw new Error('provider exploded');
      reply.header('location', '/v1/echo/1').header('x-not-replayed', 'yes');
      return { run: echoRuns, received: request.body ?? null };
    });
    app.delete('/v1/things/:id', { config: { idempotency: 'response' } }, async (request) => ({
      deleted: (request.params as { id: string }).id,
      run: (echoRuns += 1),
    }));
    app.post('/v1/unguarded', { config: { idempotency: 'none' } }, async () => ({ run: (echoRuns += 1) }));
    // Answers 202 while a job is unfinished (not stored), 200 once it is (stored); shows what the route sees.
    app.post('/v1/jobs', { config: { idempotency: 'response' } }, async (request, reply) => {
      echoRuns += 1;
      const seen = { run: echoRuns, key: request.idempotency.key ?? null, scope: request.idempotency.scope ?? null };
      if (jobFinished) return { ...seen, fingerprint: request.idempotency.fingerprint ?? null };
      request.idempotency.skipStoring();
      return reply.code(202).send(seen);
    });
    app.post(
      '/v1/transactional-jobs',
      { config: { idempotency: 'transaction' }, schema: { body: OrganizationBody } },
      async (request) =>
        request.idempotency.transaction(db, async (tx) => {
          const [organization] = await tx.insert(organizations).values({ name: request.body.name }).returning();
          if (!jobFinished) request.idempotency.skipStoring();
          return { statusCode: jobFinished ? 201 : 202, body: { id: organization!.id } };
        }),
    );
    app.post(
      '/v1/with-headers',
      { config: { idempotency: 'response' }, schema: { headers: Type.Object({ 'x-tenant': Type.String() }) } },
      async (request) => ({ tenant: request.headers['x-tenant'], run: (echoRuns += 1) }),
    );
  };

  async function appWith(options: Partial<IdempotencyOptions> = {}) {
    const app = createServer({
      service: { name: 'test', version: '0', description: 'test' },
      logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
    });
    app.register(idempotency, {
      db: handle.db,
      now: () => clock,
      scopeOf: (request) => `client:${String(request.headers['x-client'] ?? 'a')}`,
      onReplay: () => {
        replays += 1;
      },
      ...options,
    });
    app.register(routes, { db: handle.db });
    await app.ready();
    return app;
  }

  let app: Awaited<ReturnType<typeof appWith>>;
  const countOrganizations = () => handle.db.$count(organizations);
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, payload: body as object, headers });

  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(async () => {
    await handle.close();
  });
  beforeEach(async () => {
    clock = start;
    echoRuns = 0;
    failNext = undefined;
    jobFinished = false;
    heldGates = [];
    replays = 0;
    logLines = [];
    await handle.db.delete(idempotencyRecords);
    await handle.db.delete(organizations);
    app = await appWith();
  });
  afterEach(async () => {
    await app.close();
  });

  it('replays the stored answer without running the operation again', async () => {
    const headers = { 'x-idempotency-key': 'create-acme' };
    const first = await post('/v1/organizations', { name: 'Acme' }, headers);
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    clock = new Date(start.getTime() + 23 * 60 * 60 * SECOND);
    const second = await post('/v1/organizations', { name: 'Acme' }, headers);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(second.headers.location).toBe(first.headers.location);
    expect(await countOrganizations()).toBe(1);
    expect(replays).toBe(1);
  });

  it("stores the answer of a unit of work with the unit's writes, and replays it", async () => {
    const first = await post('/v1/unit-organizations', { name: 'Acme' }, { 'x-idempotency-key': 'u1' });
    expect(first.statusCode).toBe(201);
    const again = await post('/v1/unit-organizations', { name: 'Acme' }, { 'x-idempotency-key': 'u1' });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countOrganizations()).toBe(1);
  });

  it('answers 409 to the late owner of a taken-over key whose unit of work would commit by itself, writing nothing', async () => {
    const held = gate();
    heldGates.push(held);
    const headers = { 'x-idempotency-key': 'u-abandoned' };
    const stuck = post('/v1/unit-organizations', { name: 'Acme' }, headers);
    await vi.waitFor(async () => expect(await handle.db.$count(idempotencyRecords)).toBe(1), {
      timeout: EVENTUALLY_TIMEOUT_MS,
    });

    clock = new Date(start.getTime() + 60 * SECOND);
    const takeover = await post('/v1/unit-organizations', { name: 'Acme' }, headers);
    expect(takeover.statusCode).toBe(201);

    held.open();
    const late = await stuck;
    expect(late.statusCode).toBe(409);
    expect(await countOrganizations()).toBe(1);
    const replay = await post('/v1/unit-organizations', { name: 'Acme' }, headers);
    expect(replay.body).toBe(takeover.body);
  });

  it('replays for the same body written in another key order', async () => {
    const headers = { 'x-idempotency-key': 'k-order' };
    const first = await app.inject({
      method: 'POST',
      url: '/v1/organizations',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"name":"Acme","tags":["a","b"]}',
    });
    const second = await app.inject({
      method: 'POST',
      url: '/v1/organizations',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"tags":["a","b"],"name":"Acme"}',
    });
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect(await countOrganizations()).toBe(1);
  });

  it('answers 422 for the same key with another body and writes nothing', async () => {
    const headers = { 'x-idempotency-key': 'k-reuse' };
    await post('/v1/organizations', { name: 'Acme' }, headers);
    const reused = await post('/v1/organizations', { name: 'Globex' }, headers);
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toMatchObject({ success: false, code: 'idempotency_key_reused' });
    expect(await countOrganizations()).toBe(1);
  });

  it('runs every request that carries no key', async () => {
    expect((await post('/v1/organizations', { name: 'Acme' })).statusCode).toBe(201);
    expect((await post('/v1/organizations', { name: 'Acme' })).statusCode).toBe(201);
    expect(await countOrganizations()).toBe(2);
  });

  it('keeps the keys of different credentials apart', async () => {
    await post('/v1/organizations', { name: 'Acme' }, { 'x-idempotency-key': 'shared', 'x-client': 'a' });
    const other = await post('/v1/organizations', { name: 'Acme' }, { 'x-idempotency-key': 'shared', 'x-client': 'b' });
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(await countOrganizations()).toBe(2);
  });

  it.each([
    ['256 characters long', 'k'.repeat(256)],
    ['containing a space', 'two words'],
    ['not ASCII', 'cl\u00e9'],
    ['empty', ''],
  ])('refuses a key %s with the 400 envelope and writes nothing', async (_label, key) => {
    for (const header of ['x-idempotency-key', 'idempotency-key']) {
      const response = await post('/v1/organizations', { name: 'Acme' }, { [header]: key });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'validation_error' });
      expect(response.json().error).toMatch(new RegExp(`^the ${header} header must `));
      expect(response.json().error).not.toMatch(/pattern|\^|\$/);
    }
    expect(await countOrganizations()).toBe(0);
    expect(await handle.db.$count(idempotencyRecords)).toBe(0);
  });

  it('does not store a failed answer, so the same key works once the cause is fixed', async () => {
    const headers = { 'x-idempotency-key': 'k-retry' };
    failNext = 'conflict';
    const failed = await post('/v1/organizations', { name: 'Acme' }, headers);
    expect(failed.statusCode).toBe(409);
    expect(await countOrganizations()).toBe(0); // the transaction rolled back
    expect(await handle.db.$count(idempotencyRecords)).toBe(0);

    failNext = undefined;
    const retried = await post('/v1/organizations', { name: 'Acme' }, headers);
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    expect(await countOrganizations()).toBe(1);
  });

  it('releases the key after a 500', async () => {
    failNext = 'crash';
    const headers = { 'x-idempotency-key': 'k-crash' };
    expect((await post('/v1/echo', { a: 1 }, headers)).statusCode).toBe(500);
    failNext = undefined;
    const retried = await post('/v1/echo', { a: 1 }, headers);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual({ run: 2, received: { a: 1 } });
  });

  it('stores the answer of a route that is not transactional once it is sent', async () => {
    const headers = { 'x-idempotency-key': 'k-echo' };
    const first = await post('/v1/echo', { b: 2, a: 1 }, headers);
    const second = await post('/v1/echo', { a: 1, b: 2 }, headers);
    expect(first.json()).toEqual({ run: 1, received: { b: 2, a: 1 } });
    // Without a response schema the replay is the same JSON value (jsonb keeps no key order).
    expect(second.json()).toEqual(first.json());
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers.location).toBe('/v1/echo/1');
    expect(second.headers['x-not-replayed']).toBeUndefined();
    expect(echoRuns).toBe(1);
  });

  it('keeps an answer the route asks not to store out of the store, so a retry runs again', async () => {
    const headers = { 'x-idempotency-key': 'k-job', 'x-client': 'b' };
    const pending = await post('/v1/jobs', { job: 1 }, headers);
    expect(pending.statusCode).toBe(202);
    expect(pending.json()).toEqual({ run: 1, key: 'k-job', scope: 'client:b' });
    expect(await handle.db.$count(idempotencyRecords)).toBe(0);
    const stillPending = await post('/v1/jobs', { job: 1 }, headers);
    expect(stillPending.statusCode).toBe(202);
    expect(stillPending.headers['idempotent-replayed']).toBeUndefined();

    jobFinished = true;
    const finished = await post('/v1/jobs', { job: 1 }, headers);
    expect(finished.statusCode).toBe(200);
    expect(finished.json()).toMatchObject({
      run: 3,
      fingerprint: expect.stringMatching(/^POST \/v1\/jobs [0-9a-f]{64}$/),
    });
    const replayed = await post('/v1/jobs', { job: 1 }, headers);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.json()).toEqual(finished.json());
    expect(echoRuns).toBe(3);
  });

  it('tells a route without a key nothing about scope or fingerprint', async () => {
    jobFinished = true;
    expect((await post('/v1/jobs', {})).json()).toEqual({ run: 1, key: null, scope: null, fingerprint: null });
  });

  it('commits the business rows of a transactional answer kept out of the store, and releases the key', async () => {
    const headers = { 'x-idempotency-key': 'k-tx-job' };
    expect((await post('/v1/transactional-jobs', { name: 'Acme' }, headers)).statusCode).toBe(202);
    expect(await countOrganizations()).toBe(1);
    expect(await handle.db.$count(idempotencyRecords)).toBe(0);
    jobFinished = true;
    expect((await post('/v1/transactional-jobs', { name: 'Acme' }, headers)).statusCode).toBe(201);
    const replayed = await post('/v1/transactional-jobs', { name: 'Acme' }, headers);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(await countOrganizations()).toBe(2);
  });

  it('counts the path parameters as part of the request', async () => {
    const headers = { 'x-idempotency-key': 'k-delete' };
    expect((await app.inject({ method: 'DELETE', url: '/v1/things/a', headers })).statusCode).toBe(200);
    const other = await app.inject({ method: 'DELETE', url: '/v1/things/b', headers });
    expect(other.statusCode).toBe(422);
    expect(echoRuns).toBe(1);
  });

  it('ignores keys on routes that opt out', async () => {
    const headers = { 'x-idempotency-key': 'k-none' };
    await post('/v1/unguarded', {}, headers);
    await post('/v1/unguarded', {}, headers);
    expect(echoRuns).toBe(2);
    expect(await handle.db.$count(idempotencyRecords)).toBe(0);
  });

  it('answers 409 with Retry-After while the first request runs, then replays it', async () => {
    const held = gate();
    heldGates.push(held);
    const headers = { 'x-idempotency-key': 'k-running' };
    const first = post('/v1/slow-organizations', { name: 'Acme' }, headers);
    await vi.waitFor(async () => expect(await handle.db.$count(idempotencyRecords)).toBe(1), {
      timeout: EVENTUALLY_TIMEOUT_MS,
    });

    const meanwhile = await post('/v1/slow-organizations', { name: 'Acme' }, headers);
    expect(meanwhile.statusCode).toBe(409);
    expect(meanwhile.headers['retry-after']).toBe('1');
    expect(meanwhile.json()).toMatchObject({ code: 'idempotency_key_in_use' });

    held.open();
    expect((await first).statusCode).toBe(201);
    const after = await post('/v1/slow-organizations', { name: 'Acme' }, headers);
    expect(after.headers['idempotent-replayed']).toBe('true');
    expect(await countOrganizations()).toBe(1);
  });

  it('takes over a key whose request stopped answering for 60 seconds, and the late owner writes nothing', async () => {
    const held = gate();
    heldGates.push(held);
    const headers = { 'x-idempotency-key': 'k-abandoned' };
    const stuck = post('/v1/slow-organizations', { name: 'Acme' }, headers);
    await vi.waitFor(async () => expect(await handle.db.$count(idempotencyRecords)).toBe(1), {
      timeout: EVENTUALLY_TIMEOUT_MS,
    });

    clock = new Date(start.getTime() + 60 * SECOND);
    const takeover = await post('/v1/slow-organizations', { name: 'Acme' }, headers);
    expect(takeover.statusCode).toBe(201);
    expect(takeover.headers['idempotent-replayed']).toBeUndefined();
    expect(logLines.join('\n')).toContain('Took over an idempotency key');

    held.open();
    const late = await stuck;
    expect(late.statusCode).toBe(409); // its transaction rolled back: the operation happened once
    expect(await countOrganizations()).toBe(1);
    const replay = await post('/v1/slow-organizations', { name: 'Acme' }, headers);
    expect(replay.body).toBe(takeover.body);
  });

  it('still stores the answer of a transactional route that forgot the helper, and says so in the log', async () => {
    const headers = { 'x-idempotency-key': 'k-forgot' };
    await post('/v1/forgetful', { name: 'Acme' }, headers);
    const replay = await post('/v1/forgetful', { name: 'Acme' }, headers);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await countOrganizations()).toBe(1);
    expect(
      logLines.some((line) => line.includes('without request.idempotency.transaction') && line.includes('"level":50')),
    ).toBe(true);
  });

  it('reads the key from either header name: a retry under the other name replays', async () => {
    await post('/v1/organizations', { name: 'Acme' }, { 'idempotency-key': 'k-alt' });
    const replay = await post('/v1/organizations', { name: 'Acme' }, { 'x-idempotency-key': 'k-alt' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await countOrganizations()).toBe(1);
  });

  it('documents the key header on guarded routes only', async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = (path: string, method: string) =>
      (document.paths[path][method].parameters ?? []).map(
        (parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`,
      );
    expect(parameters('/v1/organizations', 'post')).toContain('header:x-idempotency-key');
    expect(parameters('/v1/things/{id}', 'delete')).toContain('header:x-idempotency-key');
    expect(parameters('/v1/unguarded', 'post')).not.toContain('header:x-idempotency-key');
  });

  it("adds the key header to a route's own headers schema", async () => {
    const document = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const names = document.paths['/v1/with-headers'].post.parameters.map(
      (parameter: { name: string }) => parameter.name,
    );
    expect(names).toEqual(expect.arrayContaining(['x-tenant', 'x-idempotency-key']));
    expect((await post('/v1/with-headers', {}, { 'x-idempotency-key': 'k-tenant' })).statusCode).toBe(400);
    const headers = { 'x-idempotency-key': 'k-tenant', 'x-tenant': 'acme' };
    await post('/v1/with-headers', {}, headers);
    expect((await post('/v1/with-headers', {}, headers)).headers['idempotent-replayed']).toBe('true');
    expect(echoRuns).toBe(1);
  });

  it('refuses to start when a state-changing route does not say how it handles keys', async () => {
    const broken = createServer({ service: { name: 'test', version: '0', description: 'test' }, logger: false });
    broken.register(idempotency, { db: handle.db, scopeOf: () => 'x' });
    broken.register(async (scope) => {
      scope.patch('/v1/anything', async () => ({ ok: true }));
    });
    await expect(broken.ready()).rejects.toThrow(
      /PATCH \/v1\/anything changes state, so it must declare config.idempotency/,
    );
    await broken.close();
  });

  it('purges expired records on a schedule while the app runs', async () => {
    await app.close();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      app = await appWith({ purge: { intervalMs: 60 * 60 * SECOND } });
      await post('/v1/organizations', { name: 'Acme' }, { 'x-idempotency-key': 'k-old' });
      clock = new Date(start.getTime() + 24 * 60 * 60 * SECOND);
      await vi.advanceTimersByTimeAsync(60 * 60 * SECOND);
      await vi.waitFor(async () => expect(await handle.db.$count(idempotencyRecords)).toBe(0), {
        timeout: EVENTUALLY_TIMEOUT_MS,
      });
    } finally {
      await app.close();
      vi.useRealTimers();
    }
  });
});
