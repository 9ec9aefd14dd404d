import { idempotencyRecords } from '@platform/db/schema';
import { expect, it } from 'vitest';
import { idempotencyHarness } from '../test/plugin-harness.js';

const h = idempotencyHarness();
const { countOrganizations, post } = h;

it('does not store a failed answer, so the same key works once the cause is fixed', async () => {
  const headers = { 'x-idempotency-key': 'k-retry' };
  h.failNext = 'conflict';
  const failed = await post('/v1/organizations', { name: 'Acme' }, headers);
  expect(failed.statusCode).toBe(409);
  expect(await countOrganizations()).toBe(0); // the transaction rolled back
  expect(await h.handle.db.$count(idempotencyRecords)).toBe(0);

  h.failNext = undefined;
  const retried = await post('/v1/organizations', { name: 'Acme' }, headers);
  expect(retried.statusCode).toBe(201);
  expect(retried.headers['idempotent-replayed']).toBeUndefined();
  expect(await countOrganizations()).toBe(1);
});

it('releases the key after a 500', async () => {
  h.failNext = 'crash';
  const headers = { 'x-idempotency-key': 'k-crash' };
  expect((await post('/v1/echo', { a: 1 }, headers)).statusCode).toBe(500);
  h.failNext = undefined;
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
  expect(h.echoRuns).toBe(1);
});

it('keeps an answer the route asks not to store out of the store, so a retry runs again', async () => {
  const headers = { 'x-idempotency-key': 'k-job', 'x-client': 'b' };
  const pending = await post('/v1/jobs', { job: 1 }, headers);
  expect(pending.statusCode).toBe(202);
  expect(pending.json()).toEqual({ run: 1, key: 'k-job', scope: 'client:b' });
  expect(await h.handle.db.$count(idempotencyRecords)).toBe(0);
  const stillPending = await post('/v1/jobs', { job: 1 }, headers);
  expect(stillPending.statusCode).toBe(202);
  expect(stillPending.headers['idempotent-replayed']).toBeUndefined();

  h.jobFinished = true;
  const finished = await post('/v1/jobs', { job: 1 }, headers);
  expect(finished.statusCode).toBe(200);
  expect(finished.json()).toMatchObject({
    run: 3,
    fingerprint: expect.stringMatching(/^POST \/v1\/jobs [0-9a-f]{64}$/),
  });
  const replayed = await post('/v1/jobs', { job: 1 }, headers);
  expect(replayed.headers['idempotent-replayed']).toBe('true');
  expect(replayed.json()).toEqual(finished.json());
  expect(h.echoRuns).toBe(3);
});

it('tells a route without a key nothing about scope or fingerprint', async () => {
  h.jobFinished = true;
  expect((await post('/v1/jobs', {})).json()).toEqual({ run: 1, key: null, scope: null, fingerprint: null });
});

it('commits the business rows of a transactional answer kept out of the store, and releases the key', async () => {
  const headers = { 'x-idempotency-key': 'k-tx-job' };
  expect((await post('/v1/transactional-jobs', { name: 'Acme' }, headers)).statusCode).toBe(202);
  expect(await countOrganizations()).toBe(1);
  expect(await h.handle.db.$count(idempotencyRecords)).toBe(0);
  h.jobFinished = true;
  expect((await post('/v1/transactional-jobs', { name: 'Acme' }, headers)).statusCode).toBe(201);
  const replayed = await post('/v1/transactional-jobs', { name: 'Acme' }, headers);
  expect(replayed.statusCode).toBe(201);
  expect(replayed.headers['idempotent-replayed']).toBe('true');
  expect(await countOrganizations()).toBe(2);
});

it('counts the path parameters as part of the request', async () => {
  const headers = { 'x-idempotency-key': 'k-delete' };
  expect((await h.app.inject({ method: 'DELETE', url: '/v1/things/a', headers })).statusCode).toBe(200);
  const other = await h.app.inject({ method: 'DELETE', url: '/v1/things/b', headers });
  expect(other.statusCode).toBe(422);
  expect(h.echoRuns).toBe(1);
});

it('ignores keys on routes that opt out', async () => {
  const headers = { 'x-idempotency-key': 'k-none' };
  await post('/v1/unguarded', {}, headers);
  await post('/v1/unguarded', {}, headers);
  expect(h.echoRuns).toBe(2);
  expect(await h.handle.db.$count(idempotencyRecords)).toBe(0);
});
