import { idempotencyRecords } from '@platform/db/schema';
import { createServer } from '@platform/http';
import { expect, it, vi } from 'vitest';
import { EVENTUALLY_TIMEOUT_MS } from '#test-timing';
import { idempotencyHarness, SECOND, start } from '../test/plugin-harness.js';
import { idempotency } from './plugin.js';

const h = idempotencyHarness();
const { appWith, countOrganizations, post } = h;

it('still stores the answer of a transactional route that forgot the helper, and says so in the log', async () => {
  const headers = { 'x-idempotency-key': 'k-forgot' };
  await post('/v1/forgetful', { name: 'Acme' }, headers);
  const replay = await post('/v1/forgetful', { name: 'Acme' }, headers);
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(await countOrganizations()).toBe(1);
  expect(
    h.logLines.some((line) => line.includes('without request.idempotency.transaction') && line.includes('"level":50')),
  ).toBe(true);
});

it('reads the key from either header name: a retry under the other name replays', async () => {
  await post('/v1/organizations', { name: 'Acme' }, { 'idempotency-key': 'k-alt' });
  const replay = await post('/v1/organizations', { name: 'Acme' }, { 'x-idempotency-key': 'k-alt' });
  expect(replay.headers['idempotent-replayed']).toBe('true');
  expect(await countOrganizations()).toBe(1);
});

it('documents the key header on guarded routes only', async () => {
  const document = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const parameters = (path: string, method: string) =>
    (document.paths[path][method].parameters ?? []).map(
      (parameter: { name: string; in: string }) => `${parameter.in}:${parameter.name}`,
    );
  expect(parameters('/v1/organizations', 'post')).toContain('header:x-idempotency-key');
  expect(parameters('/v1/things/{id}', 'delete')).toContain('header:x-idempotency-key');
  expect(parameters('/v1/unguarded', 'post')).not.toContain('header:x-idempotency-key');
});

it("adds the key header to a route's own headers schema", async () => {
  const document = (await h.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const names = document.paths['/v1/with-headers'].post.parameters.map((parameter: { name: string }) => parameter.name);
  expect(names).toEqual(expect.arrayContaining(['x-tenant', 'x-idempotency-key']));
  expect((await post('/v1/with-headers', {}, { 'x-idempotency-key': 'k-tenant' })).statusCode).toBe(400);
  const headers = { 'x-idempotency-key': 'k-tenant', 'x-tenant': 'acme' };
  await post('/v1/with-headers', {}, headers);
  expect((await post('/v1/with-headers', {}, headers)).headers['idempotent-replayed']).toBe('true');
  expect(h.echoRuns).toBe(1);
});

it('refuses to start when a state-changing route does not say how it handles keys', async () => {
  const broken = createServer({ service: { name: 'test', version: '0', description: 'test' }, logger: false });
  broken.register(idempotency, { db: h.handle.db, scopeOf: () => 'x' });
  broken.register(async (scope) => {
    scope.patch('/v1/anything', async () => ({ ok: true }));
  });
  await expect(broken.ready()).rejects.toThrow(
    /PATCH \/v1\/anything changes state, so it must declare config.idempotency/,
  );
  await broken.close();
});

it('purges expired records on a schedule while the app runs', async () => {
  await h.app.close();
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  try {
    h.app = await appWith({ purge: { intervalMs: 60 * 60 * SECOND } });
    await post('/v1/organizations', { name: 'Acme' }, { 'x-idempotency-key': 'k-old' });
    h.clock = new Date(start.getTime() + 24 * 60 * 60 * SECOND);
    await vi.advanceTimersByTimeAsync(60 * 60 * SECOND);
    await vi.waitFor(async () => expect(await h.handle.db.$count(idempotencyRecords)).toBe(0), {
      timeout: EVENTUALLY_TIMEOUT_MS,
    });
  } finally {
    await h.app.close();
    vi.useRealTimers();
  }
});
