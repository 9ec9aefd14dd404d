import { createDatabase, queryRows } from '@platform/db';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { deliverySuite } from '../test/delivery-suite.js';
import { insertOrganization } from '../test/fixtures.js';
import {
  getWebhookLogEvent,
  listWebhookLog,
  outcomeOf,
  redeliverWebhookEvent,
  sendTestWebhookEvent,
  TEST_EVENT_TYPE,
} from './delivery-log.js';
import { ensureWebhookEndpoint, revealWebhookSecret, setDefaultWebhookUrl } from './endpoints.js';
import { REDACTED } from './response-excerpt.js';

const suite = deliverySuite();
const { enqueue, worker, eventRow } = suite;

const logQuery = (overrides: Partial<Parameters<typeof listWebhookLog>[1]> = {}) => ({
  organizationId: suite.organizationId,
  environment: undefined,
  type: undefined,
  outcome: undefined,
  from: undefined,
  to: undefined,
  after: undefined,
  limit: 10,
  ...overrides,
});

describe('the delivery log', () => {
  it('records each try with its status, latency, outcome and a scrubbed excerpt of the answer', async () => {
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const delivery = worker({ now: () => clock });
    suite.receiver.respond = () => ({
      status: 500,
      body: '{"error":"database down","api_key":"live_abc123"}\r\n\u001b[2Jtrace: Bearer eyJhbGciOi.eyJzdWIi.sig',
    });
    const { id } = await enqueue({ now: clock });
    await delivery.runOnce();
    expect(outcomeOf(await eventRow(id))).toBe('retrying');

    suite.receiver.respond = () => ({ status: 200, body: 'ok' });
    clock = (await eventRow(id)).nextAttemptAt;
    await delivery.runOnce();

    const logged = await getWebhookLogEvent(suite.handle.db, suite.organizationId, id);
    expect(logged?.event).toMatchObject({ id, status: 'delivered', attempts: 2, deliveries: 1 });
    expect(logged?.attempts).toEqual([
      expect.objectContaining({
        delivery: 1,
        attempt: 1,
        responseStatus: 500,
        outcome: 'retrying',
        responseExcerpt: `{"error":"database down","api_key":"${REDACTED}"} [2Jtrace: Bearer ${REDACTED}`,
      }),
      expect.objectContaining({
        delivery: 1,
        attempt: 2,
        responseStatus: 200,
        outcome: 'delivered',
        responseExcerpt: 'ok',
      }),
    ]);
    for (const attempt of logged?.attempts ?? []) expect(attempt.durationMs).toBeGreaterThanOrEqual(0);

    const [entry] = await listWebhookLog(suite.handle.db, logQuery());
    expect(entry?.event.id).toBe(id);
    expect(entry?.lastAttempt).toMatchObject({ attempt: 2, outcome: 'delivered' });
  });

  it('marks the last try of an event given up as failed for good, and a 204 without body has no excerpt', async () => {
    suite.receiver.respond = () => ({ status: 410 });
    const { id } = await enqueue();
    await worker().runOnce();
    const logged = await getWebhookLogEvent(suite.handle.db, suite.organizationId, id);
    expect(outcomeOf(logged!.event)).toBe('failed');
    expect(logged?.attempts).toEqual([expect.objectContaining({ outcome: 'failed', responseExcerpt: null })]);
  });

  it("shows nothing of another organization's events", async () => {
    const { id } = await enqueue();
    const other = await insertOrganization(suite.handle.db, 'Other');
    expect(await getWebhookLogEvent(suite.handle.db, other, id)).toBeNull();
    expect(await listWebhookLog(suite.handle.db, logQuery({ organizationId: other }))).toEqual([]);
    expect(await redeliverWebhookEvent(suite.handle.db, { organizationId: other, eventId: id, now: new Date() })).toBe(
      null,
    );
    expect((await eventRow(id)).deliveries).toBe(1);
  });
});

describe('redelivery', () => {
  it('sends a delivered event again with the same webhook-id and body, as a new delivery', async () => {
    // An hour ago, and now: the receiver checks the signature's time against its own clock.
    let clock = new Date(Date.now() - 3_600_000);
    const delivery = worker({ now: () => clock });
    const { id } = await enqueue({ now: clock });
    await delivery.runOnce();

    clock = new Date();
    const redelivery = await redeliverWebhookEvent(suite.handle.db, {
      organizationId: suite.organizationId,
      eventId: id,
      now: clock,
    });
    expect(redelivery).toMatchObject({ result: 'scheduled', event: { status: 'pending', attempts: 0, deliveries: 2 } });
    expect(redelivery?.event.nextAttemptAt).toEqual(clock);
    // A second click while it waits schedules nothing more.
    const again = await redeliverWebhookEvent(suite.handle.db, {
      organizationId: suite.organizationId,
      eventId: id,
      now: clock,
    });
    expect(again).toMatchObject({ result: 'already_scheduled', event: { deliveries: 2 } });

    expect(await delivery.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    const [first, second] = suite.receiver.requests;
    expect(suite.receiver.requests).toHaveLength(2);
    expect(second?.headers['webhook-id']).toBe(id);
    expect(second?.body).toBe(first?.body);
    const { secret } = (await revealWebhookSecret(suite.handle.db, {
      organizationId: suite.organizationId,
      environment: 'test',
      now: clock,
    }))!;
    expect(() => new Webhook(secret).verify(second!.body, second!.headers as Record<string, string>)).not.toThrow();

    const logged = await getWebhookLogEvent(suite.handle.db, suite.organizationId, id);
    expect(logged?.attempts.map((attempt) => [attempt.delivery, attempt.attempt, attempt.outcome])).toEqual([
      [1, 1, 'delivered'],
      [2, 1, 'delivered'],
    ]);
  });

  it('goes to the default URL configured now, and makes a retrying event due at once without a second delivery', async () => {
    await setDefault(`${suite.receiver.origin}/old`);
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const delivery = worker({ now: () => clock });
    suite.receiver.respond = () => ({ status: 503 });
    const { id } = await enqueue({ targetUrl: null, now: clock });
    await delivery.runOnce();
    expect((await eventRow(id)).nextAttemptAt.getTime()).toBeGreaterThan(clock.getTime());

    await setDefault(`${suite.receiver.origin}/new`);
    const hurried = await redeliverWebhookEvent(suite.handle.db, {
      organizationId: suite.organizationId,
      eventId: id,
      now: clock,
    });
    expect(hurried).toMatchObject({ result: 'already_scheduled', event: { deliveries: 1, attempts: 1 } });
    expect(hurried?.event.nextAttemptAt).toEqual(clock);
    suite.receiver.respond = () => ({ status: 204 });
    clock = new Date(clock.getTime() + 1);
    await delivery.runOnce();
    expect(suite.receiver.requests.map((request) => request.path)).toEqual(['/old', '/new']);
    expect(await eventRow(id)).toMatchObject({ status: 'delivered', attempts: 2, deliveries: 1 });
  });
});

describe('test events', () => {
  it('needs a default URL, then goes through the outbox, signed, and shows in the log', async () => {
    const now = new Date();
    const input = { organizationId: suite.organizationId, environment: 'live' as const, now };
    expect(await sendTestWebhookEvent(suite.handle.db, input)).toBeNull();
    await ensureWebhookEndpoint(suite.handle.db, input);
    expect(await sendTestWebhookEvent(suite.handle.db, input)).toBeNull();

    await setDefaultWebhookUrl(suite.handle.db, { ...input, defaultUrl: `${suite.receiver.origin}/live` });
    const sent = await sendTestWebhookEvent(suite.handle.db, input);
    await worker({ now: () => now }).runOnce();
    const [request] = suite.receiver.requests;
    expect(request?.path).toBe('/live');
    expect(request?.headers['webhook-id']).toBe(sent?.id);
    const { secret } = (await revealWebhookSecret(suite.handle.db, input))!;
    const body = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>);
    expect(body).toMatchObject({ id: sent?.id, type: TEST_EVENT_TYPE, data: { environment: 'live' } });
    const [entry] = await listWebhookLog(suite.handle.db, logQuery({ type: TEST_EVENT_TYPE, environment: 'live' }));
    expect(entry?.event).toMatchObject({ id: sent?.id, status: 'delivered' });
  });
});

describe.skipIf(missing(postgresServer))('redelivery on one PostgreSQL (needs DATABASE_URL)', () => {
  it('schedules one delivery for two redeliveries at once, from two connection pools', async () => {
    const [database] = await queryRows<{ name: string }>(suite.handle.db, sql`select current_database() as name`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${database!.name}`;
    const second = await createDatabase({ url: url.toString(), maxConnections: 5 });
    try {
      const now = new Date('2024-06-15T12:00:00.000Z');
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) ids.push((await enqueue({ now })).id);
      expect(await worker({ now: () => now }).runOnce()).toMatchObject({ delivered: 10 });
      for (const id of ids) {
        const input = { organizationId: suite.organizationId, eventId: id, now };
        // Each request in a transaction of its own, holding its row lock until commit as a route's does.
        const results = await Promise.all(
          [suite.handle.db, second.db].map((db) => db.transaction((tx) => redeliverWebhookEvent(tx, input))),
        );
        expect(results.map((result) => result?.result).sort()).toEqual(['already_scheduled', 'scheduled']);
        expect((await eventRow(id)).deliveries).toBe(2);
      }
      suite.receiver.requests.length = 0;
      expect(await worker({ now: () => now }).runOnce()).toMatchObject({ claimed: 10, delivered: 10 });
      expect(suite.receiver.requests).toHaveLength(10);
    } finally {
      await second.close();
    }
  });
});

async function setDefault(defaultUrl: string) {
  await setDefaultWebhookUrl(suite.handle.db, {
    organizationId: suite.organizationId,
    environment: 'test',
    defaultUrl,
    now: new Date(),
  });
}
