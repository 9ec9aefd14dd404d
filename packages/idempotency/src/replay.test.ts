import { idempotencyRecords } from '@platform/db/schema';
import { expect, it } from 'vitest';
import { idempotencyHarness, SECOND, start } from '../test/plugin-harness.js';

const h = idempotencyHarness();
const { countOrganizations, post } = h;

it('replays the stored answer without running the operation again', async () => {
  const headers = { 'x-idempotency-key': 'create-acme' };
  const first = await post('/v1/organizations', { name: 'Acme' }, headers);
  expect(first.statusCode).toBe(201);
  expect(first.headers['idempotent-replayed']).toBeUndefined();

  h.clock = new Date(start.getTime() + 23 * 60 * 60 * SECOND);
  const second = await post('/v1/organizations', { name: 'Acme' }, headers);
  expect(second.statusCode).toBe(201);
  expect(second.headers['idempotent-replayed']).toBe('true');
  expect(second.body).toBe(first.body);
  expect(second.headers.location).toBe(first.headers.location);
  expect(await countOrganizations()).toBe(1);
  expect(h.replays).toBe(1);
});

it("says a replay on the request's one log line, with its key", async () => {
  const headers = { 'x-idempotency-key': 'logged-replay' };
  await post('/v1/organizations', { name: 'Acme' }, headers);
  h.logLines.length = 0;
  const again = await post('/v1/organizations', { name: 'Acme' }, headers);
  expect(again.headers['idempotent-replayed']).toBe('true');
  const lines = h.logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
  expect(lines).toEqual([
    expect.objectContaining({
      msg: 'request completed',
      statusCode: 201,
      idempotencyKey: 'logged-replay',
      idempotentReplay: true,
    }),
  ]);
});

it('writes no replay facts on the line of a first execution', async () => {
  h.logLines.length = 0;
  await post('/v1/organizations', { name: 'Initech' }, { 'x-idempotency-key': 'first-run' });
  const completed = h.logLines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'request completed');
  expect(completed).toHaveLength(1);
  expect(completed[0]).not.toHaveProperty('idempotentReplay');
});

it("stores the answer of a unit of work with the unit's writes, and replays it", async () => {
  const first = await post('/v1/unit-organizations', { name: 'Acme' }, { 'x-idempotency-key': 'u1' });
  expect(first.statusCode).toBe(201);
  const again = await post('/v1/unit-organizations', { name: 'Acme' }, { 'x-idempotency-key': 'u1' });
  expect(again.headers['idempotent-replayed']).toBe('true');
  expect(again.json()).toEqual(first.json());
  expect(await countOrganizations()).toBe(1);
});

it('replays for the same body written in another key order', async () => {
  const headers = { 'x-idempotency-key': 'k-order' };
  const first = await h.app.inject({
    method: 'POST',
    url: '/v1/organizations',
    headers: { ...headers, 'content-type': 'application/json' },
    payload: '{"name":"Acme","tags":["a","b"]}',
  });
  const second = await h.app.inject({
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
  expect(await h.handle.db.$count(idempotencyRecords)).toBe(0);
});
