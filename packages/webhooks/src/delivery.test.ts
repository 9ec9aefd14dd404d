import { createDatabase, type DatabaseHandle, queryRows } from '@platform/db';
import { disabledWebhookTargets, webhookDeliveryAttempts, webhookEvents } from '@platform/db/schema';
import { createTestDatabase } from '@platform/db/testing';
import { asc, eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { missing, postgresServer } from '#test-prerequisites';
import { EVENTUALLY_TIMEOUT_MS, quietPeriod } from '#test-timing';
import { insertOrganization } from '../test/fixtures.js';
import { type Receiver, startReceiver } from '../test/receiver.js';
import {
  createWebhookDelivery,
  NO_TARGET_ERROR,
  startWebhookDelivery,
  type WebhookDeliveryOptions,
} from './delivery.js';
import { ensureWebhookEndpoint, rotateWebhookSecret, setDefaultWebhookUrl } from './endpoints.js';
import type { WebhookRequest, WebhookResponse } from './http-sender.js';
import { enqueueWebhookEvent } from './outbox.js';
import { JITTER, RETRY_SCHEDULE_MS } from './retry-schedule.js';

let handle: DatabaseHandle;
let receiver: Receiver;
let organizationId: string;

beforeAll(async () => {
  handle = await createTestDatabase();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await handle?.close();
});
beforeEach(async () => {
  receiver.requests.length = 0;
  receiver.respond = () => ({ status: 204 });
  // Each test has its own organization, so events of one test never reach another's worker.
  await handle.db.delete(webhookEvents);
  organizationId = await insertOrganization(handle.db);
});

const data = {
  sessionId: '8a1e2f44-5b6c-4d7e-9f80-112233445566',
  type: 'kyc',
  status: 'verified',
  previousStatus: 'processing',
  environment: 'test',
  externalEndUserId: 'customer-42',
  lastError: null,
};

function enqueue(
  overrides: { targetUrl?: string | null; now?: Date; environment?: 'live' | 'test'; organization?: string } = {},
) {
  return enqueueWebhookEvent(handle.db, {
    organizationId: overrides.organization ?? organizationId,
    environment: overrides.environment ?? 'test',
    type: 'verification_session.verified',
    data,
    targetUrl: overrides.targetUrl === undefined ? `${receiver.origin}/hooks` : overrides.targetUrl,
    now: overrides.now ?? new Date(),
  });
}

function worker(options: Partial<WebhookDeliveryOptions> = {}) {
  return createWebhookDelivery({ db: handle.db, allowPrivateTargets: true, ...options });
}

async function eventRow(id: string) {
  const [row] = await handle.db.select().from(webhookEvents).where(eq(webhookEvents.id, id));
  if (row === undefined) throw new Error(`No event ${id}`);
  return row;
}

function attemptsOf(id: string) {
  return handle.db
    .select()
    .from(webhookDeliveryAttempts)
    .where(eq(webhookDeliveryAttempts.eventId, id))
    .orderBy(asc(webhookDeliveryAttempts.attempt));
}

describe('delivering an event', () => {
  it('POSTs the stored body, signed so that the official standardwebhooks library verifies it', async () => {
    const { id } = await enqueue();
    const { secret } = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'test' });

    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });

    expect(receiver.requests).toHaveLength(1);
    const [request] = receiver.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/hooks' });
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['webhook-id']).toBe(id);
    const verified = new Webhook(secret).verify(request!.body, request!.headers as Record<string, string>);
    const stored = await eventRow(id);
    expect(verified).toEqual(stored.payload);
    expect(verified).toEqual({ id, type: 'verification_session.verified', timestamp: expect.any(String), data });
    expect(request!.body.startsWith(`{"id":"${id}","type":"verification_session.verified","timestamp":`)).toBe(true);

    expect(stored).toMatchObject({
      status: 'delivered',
      attempts: 1,
      lastResponseStatus: 204,
      lastError: null,
      lockedUntil: null,
    });
    expect(stored.deliveredAt).toBeInstanceOf(Date);
    expect(await attemptsOf(id)).toEqual([
      expect.objectContaining({ attempt: 1, url: `${receiver.origin}/hooks`, responseStatus: 204, error: null }),
    ]);
    // Delivered events are not sent again.
    expect(await worker().runOnce()).toEqual({ claimed: 0, delivered: 0, retrying: 0, failed: 0 });
    expect(receiver.requests).toHaveLength(1);
  });

  it('signs with the new and the previous secret during a rotation, and each verifies with its own', async () => {
    const previous = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'test' });
    const { secret } = await rotateWebhookSecret(handle.db, { organizationId, environment: 'test', now: new Date() });
    await enqueue();
    await worker().runOnce();

    const [request] = receiver.requests;
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(request!.body, headers)).not.toThrow();
    expect(() => new Webhook(previous.secret).verify(request!.body, headers)).not.toThrow();
  });

  it('signs with the new secret alone once the grace period is over', async () => {
    const previous = await ensureWebhookEndpoint(handle.db, { organizationId, environment: 'test' });
    const yesterday = new Date(Date.now() - 25 * 3_600_000);
    const { secret } = await rotateWebhookSecret(handle.db, { organizationId, environment: 'test', now: yesterday });
    await enqueue();
    await worker().runOnce();

    const [request] = receiver.requests;
    const headers = request!.headers as Record<string, string>;
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(1);
    expect(() => new Webhook(secret).verify(request!.body, headers)).not.toThrow();
    expect(() => new Webhook(previous.secret).verify(request!.body, headers)).toThrow(/No matching signature/);
  });

  it("sends an event without a callbackUrl to the organization's default endpoint of that environment", async () => {
    await setDefaultWebhookUrl(handle.db, {
      organizationId,
      environment: 'live',
      defaultUrl: `${receiver.origin}/default-live`,
      now: new Date(),
    });
    await setDefaultWebhookUrl(handle.db, {
      organizationId,
      environment: 'test',
      defaultUrl: `${receiver.origin}/default-test`,
      now: new Date(),
    });
    await enqueue({ targetUrl: null, environment: 'live' });
    expect((await worker().runOnce()).delivered).toBe(1);
    expect(receiver.requests.map((request) => request.path)).toEqual(['/default-live']);
  });

  it('fails an event with nowhere to go, saying why, without sending anything', async () => {
    const { id } = await enqueue({ targetUrl: null });
    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
    expect(await eventRow(id)).toMatchObject({ status: 'failed', lastError: NO_TARGET_ERROR, attempts: 0 });
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('retries', () => {
  it('retries on the schedule with jitter, counts the tries, and gives up after the tenth', async () => {
    receiver.respond = () => ({ status: 500 });
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const delivery = worker({ now: () => clock });
    const { id } = await enqueue({ now: clock });

    for (let attempt = 1; attempt <= RETRY_SCHEDULE_MS.length; attempt++) {
      if (attempt > 1) {
        // Not a moment early.
        const due = (await eventRow(id)).nextAttemptAt;
        clock = new Date(due.getTime() - 1);
        expect((await delivery.runOnce()).claimed).toBe(0);
        clock = due;
      }
      const summary = await delivery.runOnce();
      const row = await eventRow(id);
      expect(row.attempts).toBe(attempt);
      expect(row.lastResponseStatus).toBe(500);
      if (attempt < RETRY_SCHEDULE_MS.length) {
        expect(summary).toEqual({ claimed: 1, delivered: 0, retrying: 1, failed: 0 });
        expect(row.status).toBe('pending');
        expect(row.lastError).toBe(`Try ${attempt}: HTTP 500`);
        const delay = row.nextAttemptAt.getTime() - clock.getTime();
        const planned = RETRY_SCHEDULE_MS[attempt]!;
        expect(delay).toBeGreaterThanOrEqual(Math.floor(planned * (1 - JITTER)));
        expect(delay).toBeLessThanOrEqual(Math.ceil(planned * (1 + JITTER)));
      } else {
        expect(summary).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
        expect(row.status).toBe('failed');
        expect(row.lastError).toBe('Try 10: HTTP 500; gave up after 10 tries');
      }
    }

    expect((await attemptsOf(id)).map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(receiver.requests).toHaveLength(10);
    // Every try carries the same id and body, so the receiver can dedupe.
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id']))).toEqual(new Set([id]));
    expect(new Set(receiver.requests.map((request) => request.body)).size).toBe(1);
    clock = new Date(clock.getTime() + 7 * 24 * 3_600_000);
    expect((await delivery.runOnce()).claimed).toBe(0);
  });

  it('uses the injected random for the jitter', async () => {
    receiver.respond = () => ({ status: 503 });
    const clock = new Date('2024-06-15T12:00:00.000Z');
    const { id } = await enqueue({ now: clock });
    await worker({ now: () => clock, random: () => 0 }).runOnce();
    expect((await eventRow(id)).nextAttemptAt.getTime() - clock.getTime()).toBe(4_500);
  });

  it('delivers on a later try once the receiver recovers', async () => {
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const delivery = worker({ now: () => clock });
    receiver.respond = () => ({ status: 502 });
    const { id } = await enqueue({ now: clock });
    await delivery.runOnce();
    receiver.respond = () => ({ status: 200 });
    clock = (await eventRow(id)).nextAttemptAt;
    expect((await delivery.runOnce()).delivered).toBe(1);
    expect(await eventRow(id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastError: null,
      lastResponseStatus: 200,
    });
  });

  it('retries when the receiver cannot be reached', async () => {
    const gone = await startReceiver();
    await gone.close();
    const { id } = await enqueue({ targetUrl: `${gone.origin}/hooks` });
    expect((await worker().runOnce()).retrying).toBe(1);
    expect((await eventRow(id)).lastError).toMatch(/^Try 1: .*ECONNREFUSED/);
    expect((await attemptsOf(id))[0]).toMatchObject({
      responseStatus: null,
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });
});

describe('410 Gone', () => {
  it('disables the target: the event fails, and later events for that URL fail without being sent', async () => {
    receiver.respond = (request) => ({ status: request.path === '/gone' ? 410 : 204 });
    const goneUrl = `${receiver.origin}/gone`;
    const first = await enqueue({ targetUrl: goneUrl });
    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
    expect(await eventRow(first.id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastResponseStatus: 410,
      lastError: 'The target answered 410 Gone: it is disabled and gets no more events',
    });
    const disabled = await handle.db
      .select()
      .from(disabledWebhookTargets)
      .where(eq(disabledWebhookTargets.url, goneUrl));
    expect(disabled).toEqual([
      expect.objectContaining({ organizationId, environment: 'test', reason: `answered 410 Gone to ${first.id}` }),
    ]);

    const later = await enqueue({ targetUrl: goneUrl });
    const elsewhere = await enqueue({ targetUrl: `${receiver.origin}/fine` });
    expect(await worker().runOnce()).toEqual({ claimed: 2, delivered: 1, retrying: 0, failed: 1 });
    const laterRow = await eventRow(later.id);
    expect(laterRow).toMatchObject({ status: 'failed', attempts: 0 });
    expect(laterRow.lastError).toMatch(
      new RegExp(`^Not sent: ${goneUrl} is disabled since .* \\(answered 410 Gone to ${first.id}\\)$`),
    );
    expect((await eventRow(elsewhere.id)).status).toBe('delivered');
    expect(receiver.requests.map((request) => request.path)).toEqual(['/gone', '/fine']);
  });

  it('disables a URL for its own organization and environment only', async () => {
    receiver.respond = () => ({ status: 410 });
    await enqueue();
    await worker().runOnce();
    receiver.respond = () => ({ status: 204 });
    const otherOrganization = await insertOrganization(handle.db, 'Other');
    await enqueue({ organization: otherOrganization });
    await enqueue({ environment: 'live' });
    expect((await worker().runOnce()).delivered).toBe(2);
  });
});

describe('redirects', () => {
  it('does not follow a 3xx: the target is never asked and the try counts as failed', async () => {
    receiver.respond = (request) =>
      request.path === '/hooks'
        ? { status: 307, headers: { location: `${receiver.origin}/followed` } }
        : { status: 204 };
    const { id } = await enqueue();
    expect((await worker().runOnce()).retrying).toBe(1);
    expect(await eventRow(id)).toMatchObject({
      status: 'pending',
      lastResponseStatus: 307,
      lastError: 'Try 1: HTTP 307 (redirects are not followed)',
    });
    expect(receiver.requests.map((request) => request.path)).toEqual(['/hooks']);
  });
});

describe('the SSRF guard in the worker', () => {
  it('refuses a name resolving to loopback when private targets are not allowed, and gives up on it', async () => {
    const port = new URL(receiver.origin).port;
    const { id } = await enqueue({ targetUrl: `https://hooks.customer.example:${port}/hooks` });
    const delivery = worker({
      allowPrivateTargets: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await delivery.runOnce()).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 1 });
    expect(await eventRow(id)).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastError: 'Refused: hooks.customer.example resolves to 127.0.0.1 (loopback), which is not a public address',
    });
    expect(receiver.requests).toHaveLength(0);
  });

  it('refuses plain http and literal loopback addresses unless allowed', async () => {
    const { id } = await enqueue();
    expect((await worker({ allowPrivateTargets: false }).runOnce()).failed).toBe(1);
    expect((await eventRow(id)).lastError).toBe('Refused: The callback URL must use https');
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('claims and leases', () => {
  it('keeps other workers off a claimed event until its lease runs out; the first worker then does not overwrite', async () => {
    let clock = new Date('2024-06-15T12:00:00.000Z');
    const { id } = await enqueue({ now: clock });
    let release: (response: WebhookResponse) => void = () => {};
    const sent: WebhookRequest[] = [];
    const stalled = worker({
      now: () => clock,
      send: (request) => {
        sent.push(request);
        return new Promise((resolve) => (release = resolve));
      },
    });
    const stalledRun = stalled.runOnce();
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: EVENTUALLY_TIMEOUT_MS });

    const other = worker({ now: () => clock });
    expect((await other.runOnce()).claimed).toBe(0);
    clock = new Date(clock.getTime() + 59_999);
    expect((await other.runOnce()).claimed).toBe(0);
    clock = new Date(clock.getTime() + 1);
    expect(await other.runOnce()).toEqual({ claimed: 1, delivered: 1, retrying: 0, failed: 0 });

    release({ status: 500 });
    expect(await stalledRun).toEqual({ claimed: 1, delivered: 0, retrying: 0, failed: 0 });
    expect(await eventRow(id)).toMatchObject({ status: 'delivered', attempts: 1, lastError: null });
    // Both sends happened (delivery is at least once) and both are on record.
    expect((await attemptsOf(id)).map((attempt) => attempt.responseStatus).sort()).toEqual([204, 500]);
  });
});

describe('polling', () => {
  it('delivers without being asked once started, and stops', async () => {
    const delivery = startWebhookDelivery({ db: handle.db, allowPrivateTargets: true, intervalMs: 10 });
    try {
      const { id } = await enqueue();
      await vi.waitFor(async () => expect((await eventRow(id)).status).toBe('delivered'), {
        timeout: EVENTUALLY_TIMEOUT_MS,
      });
    } finally {
      await delivery.stop();
    }
    const { id } = await enqueue();
    // A poller still running (every 10 ms) would have sent it by now.
    await quietPeriod();
    expect((await eventRow(id)).status).toBe('pending');
  });

  it('claims batch after batch at once while they come back full, without waiting for the next tick', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await enqueue()).id);
    const delivery = startWebhookDelivery({
      db: handle.db,
      allowPrivateTargets: true,
      batchSize: 2,
      intervalMs: 60 * 60_000,
    });
    try {
      // The receiver answers before each row is marked delivered: wait for the rows, not only the requests.
      await vi.waitFor(
        async () => {
          for (const id of ids) expect((await eventRow(id)).status).toBe('delivered');
        },
        { timeout: EVENTUALLY_TIMEOUT_MS },
      );
      expect(receiver.requests).toHaveLength(5);
    } finally {
      await delivery.stop();
    }
  });

  it('logs a failed poll and polls again on the next tick', async () => {
    const errors: string[] = [];
    const logger = {
      info: () => undefined,
      warn: () => undefined,
      error: (_details: object, message: string) => errors.push(message),
    };
    let polls = 0;
    const flaky = createWebhookDelivery({
      db: handle.db,
      allowPrivateTargets: true,
      intervalMs: 10,
      logger,
      // The first poll's clock fails before anything is claimed.
      now: () => {
        polls += 1;
        if (polls === 1) throw new Error('clock unavailable');
        return new Date();
      },
    });
    const { id } = await enqueue();
    flaky.start();
    try {
      await vi.waitFor(async () => expect((await eventRow(id)).status).toBe('delivered'), {
        timeout: EVENTUALLY_TIMEOUT_MS,
      });
      expect(errors).toEqual(['Webhook delivery poll failed']);
    } finally {
      await flaky.stop();
    }
  });
});

describe.skipIf(missing(postgresServer))('several instances on one PostgreSQL (needs DATABASE_URL)', () => {
  it('delivers each event exactly once when two workers with their own connection pools race', async () => {
    const [database] = await queryRows<{ name: string }>(handle.db, sql`select current_database() as name`);
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = `/${database!.name}`;
    const second = await createDatabase({ url: url.toString(), maxConnections: 5 });
    try {
      const count = 120;
      const ids = new Set<string>();
      for (let i = 0; i < count; i++) ids.add((await enqueue()).id);
      // A receiver that takes a moment, so the workers' batches overlap more (the outcome holds however they do).
      receiver.respond = async () => {
        await new Promise((resolve) => setTimeout(resolve, 2));
        return { status: 204 };
      };
      const workers = [
        createWebhookDelivery({ db: handle.db, allowPrivateTargets: true, batchSize: 7 }),
        createWebhookDelivery({ db: second.db, allowPrivateTargets: true, batchSize: 7 }),
      ];
      const claimedBy = [0, 0];
      // Three polling loops per worker, all at once.
      await Promise.all(
        [0, 0, 0, 1, 1, 1].map(async (index) => {
          for (;;) {
            const { claimed } = await workers[index]!.runOnce();
            if (claimed === 0) return;
            claimedBy[index]! += claimed;
          }
        }),
      );

      const received = receiver.requests.map((request) => request.headers['webhook-id'] as string);
      expect(received).toHaveLength(count);
      expect(new Set(received)).toEqual(ids);
      expect(claimedBy[0]! + claimedBy[1]!).toBe(count);
      expect(claimedBy[0]).toBeGreaterThan(0);
      expect(claimedBy[1]).toBeGreaterThan(0);
      const statuses = await queryRows<{ status: string; n: number }>(
        handle.db,
        sql`select status, count(*)::int as n from webhook_events group by status`,
      );
      expect(statuses).toEqual([{ status: 'delivered', n: count }]);
      const [attempts] = await queryRows<{ n: number }>(
        handle.db,
        sql`select count(*)::int as n from webhook_delivery_attempts a join webhook_events e on e.id = a.event_id
            where e.organization_id = ${organizationId}`,
      );
      expect(attempts?.n).toBe(count);
    } finally {
      await second.close();
    }
  });
});
