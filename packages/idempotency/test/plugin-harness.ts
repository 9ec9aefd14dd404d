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
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type IdempotencyOptions, idempotency } from '../src/plugin.js';

// The app the plugin's tests (src/plugin.test.ts, replay.test.ts, stored-answers.test.ts, in-flight.test.ts) guard:
// routes of each kind, on their own test database, and what those routes did.

export const SECOND = 1000;
export const start = new Date('2026-03-02T09:00:00.000Z');

/** A hand-released gate, so a test can hold a request in its handler without sleeping. */
export function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** What the routes did and how the test steers them: set afresh before each test. */
interface HarnessState {
  clock: Date;
  echoRuns: number;
  failNext: 'conflict' | 'crash' | undefined;
  jobFinished: boolean;
  heldGates: Array<ReturnType<typeof gate>>;
  replays: number;
  logLines: string[];
}

/**
 * For the calling suite: a test database made once, and before each test empty tables, a fresh state and an app
 * (`h.app`, closed after the test). Tests steer the routes through the state (`h.failNext = 'crash'`).
 */
export function idempotencyHarness() {
  let handle: DatabaseHandle;
  const state: HarnessState = {
    clock: start,
    echoRuns: 0,
    failNext: undefined,
    jobFinished: false,
    heldGates: [],
    replays: 0,
    logLines: [],
  };

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
          if (state.failNext === 'conflict') throw conflict('An organization with this name is being reviewed');
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
        await state.heldGates.shift()?.opened;
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
        await state.heldGates.shift()?.opened;
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
      state.echoRuns += 1;
      if (state.failNext === 'crash') throw new Error('provider exploded');
      reply.header('location', '/v1/echo/1').header('x-not-replayed', 'yes');
      return { run: state.echoRuns, received: request.body ?? null };
    });
    app.delete('/v1/things/:id', { config: { idempotency: 'response' } }, async (request) => ({
      deleted: (request.params as { id: string }).id,
      run: (state.echoRuns += 1),
    }));
    app.post('/v1/unguarded', { config: { idempotency: 'none' } }, async () => ({ run: (state.echoRuns += 1) }));
    // Answers 202 while a job is unfinished (not stored), 200 once it is (stored); shows what the route sees.
    app.post('/v1/jobs', { config: { idempotency: 'response' } }, async (request, reply) => {
      state.echoRuns += 1;
      const seen = {
        run: state.echoRuns,
        key: request.idempotency.key ?? null,
        scope: request.idempotency.scope ?? null,
      };
      if (state.jobFinished) return { ...seen, fingerprint: request.idempotency.fingerprint ?? null };
      request.idempotency.skipStoring();
      return reply.code(202).send(seen);
    });
    app.post(
      '/v1/transactional-jobs',
      { config: { idempotency: 'transaction' }, schema: { body: OrganizationBody } },
      async (request) =>
        request.idempotency.transaction(db, async (tx) => {
          const [organization] = await tx.insert(organizations).values({ name: request.body.name }).returning();
          if (!state.jobFinished) request.idempotency.skipStoring();
          return { statusCode: state.jobFinished ? 201 : 202, body: { id: organization!.id } };
        }),
    );
    app.post(
      '/v1/with-headers',
      { config: { idempotency: 'response' }, schema: { headers: Type.Object({ 'x-tenant': Type.String() }) } },
      async (request) => ({ tenant: request.headers['x-tenant'], run: (state.echoRuns += 1) }),
    );
  };

  async function appWith(options: Partial<IdempotencyOptions> = {}) {
    const app = createServer({
      service: { name: 'test', version: '0', description: 'test' },
      logger: pino({ level: 'info' }, { write: (line: string) => void state.logLines.push(line) }),
    });
    app.register(idempotency, {
      db: handle.db,
      now: () => state.clock,
      scopeOf: (request) => `client:${String(request.headers['x-client'] ?? 'a')}`,
      onReplay: () => {
        state.replays += 1;
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
    Object.assign(state, {
      clock: start,
      echoRuns: 0,
      failNext: undefined,
      jobFinished: false,
      heldGates: [],
      replays: 0,
      logLines: [],
    } satisfies HarnessState);
    await handle.db.delete(idempotencyRecords);
    await handle.db.delete(organizations);
    app = await appWith();
  });
  afterEach(async () => {
    await app.close();
  });

  const extras = {
    get handle() {
      return handle;
    },
    get app() {
      return app;
    },
    set app(next: Awaited<ReturnType<typeof appWith>>) {
      app = next;
    },
    appWith,
    countOrganizations,
    post,
  };
  // The state's fields stay plain (the routes read them), and the app and database are read when a test runs.
  return Object.defineProperties(state, Object.getOwnPropertyDescriptors(extras)) as HarnessState & typeof extras;
}
