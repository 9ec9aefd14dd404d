import { idempotencyRecords } from '@platform/db/schema';
import { expect, it, vi } from 'vitest';
import { EVENTUALLY_TIMEOUT_MS } from '#test-timing';
import { gate, idempotencyHarness, SECOND, start } from '../test/plugin-harness.js';

const h = idempotencyHarness();
const { countOrganizations, post } = h;

it('answers 409 to the late owner of a taken-over key whose unit of work would commit by itself, writing nothing', async () => {
  const held = gate();
  h.heldGates.push(held);
  const headers = { 'x-idempotency-key': 'u-abandoned' };
  const stuck = post('/v1/unit-organizations', { name: 'Acme' }, headers);
  await vi.waitFor(async () => expect(await h.handle.db.$count(idempotencyRecords)).toBe(1), {
    timeout: EVENTUALLY_TIMEOUT_MS,
  });

  h.clock = new Date(start.getTime() + 60 * SECOND);
  const takeover = await post('/v1/unit-organizations', { name: 'Acme' }, headers);
  expect(takeover.statusCode).toBe(201);

  held.open();
  const late = await stuck;
  expect(late.statusCode).toBe(409);
  expect(await countOrganizations()).toBe(1);
  const replay = await post('/v1/unit-organizations', { name: 'Acme' }, headers);
  expect(replay.body).toBe(takeover.body);
});

it('answers 409 with Retry-After while the first request runs, then replays it', async () => {
  const held = gate();
  h.heldGates.push(held);
  const headers = { 'x-idempotency-key': 'k-running' };
  const first = post('/v1/slow-organizations', { name: 'Acme' }, headers);
  await vi.waitFor(async () => expect(await h.handle.db.$count(idempotencyRecords)).toBe(1), {
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
  h.heldGates.push(held);
  const headers = { 'x-idempotency-key': 'k-abandoned' };
  const stuck = post('/v1/slow-organizations', { name: 'Acme' }, headers);
  await vi.waitFor(async () => expect(await h.handle.db.$count(idempotencyRecords)).toBe(1), {
    timeout: EVENTUALLY_TIMEOUT_MS,
  });

  h.clock = new Date(start.getTime() + 60 * SECOND);
  const takeover = await post('/v1/slow-organizations', { name: 'Acme' }, headers);
  expect(takeover.statusCode).toBe(201);
  expect(takeover.headers['idempotent-replayed']).toBeUndefined();
  expect(h.logLines.join('\n')).toContain('Took over an idempotency key');

  held.open();
  const late = await stuck;
  expect(late.statusCode).toBe(409); // its transaction rolled back: the operation happened once
  expect(await countOrganizations()).toBe(1);
  const replay = await post('/v1/slow-organizations', { name: 'Acme' }, headers);
  expect(replay.body).toBe(takeover.body);
});
